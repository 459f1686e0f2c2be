import { cleanDisplayName } from '@suite/contract';

/** Longest display name kept, in characters (most file systems allow 255 bytes; browsers shorten further). */
const MAX_NAME_LENGTH = 255;
const FALLBACK_NAME = 'file';

/**
 * The display name of an upload: only the last path segment, under the contract's display-name rule
 * (NFC; control, format and bidi characters removed rather than refused: the name comes from the
 * uploader's disk, not from a form). The name is never used on disk; this keeps it harmless when
 * shown or offered as a download name.
 */
export function cleanFileName(raw: string | undefined): string {
  // Browsers send `"`, CR and LF in multipart file names as %22, %0D, %0A (HTML form encoding).
  const decoded = (raw ?? '').replace(/%22/g, '"').replace(/%0[AD]/gi, '\n');
  const lastSegment = decoded.split(/[\\/]/).pop() ?? '';
  const shortened = cleanDisplayName(lastSegment, MAX_NAME_LENGTH);
  return shortened === '' || shortened === '.' || shortened === '..' ? FALLBACK_NAME : shortened;
}

const MIME_SHAPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** The declared type without parameters when it is a well-formed MIME type; octet-stream otherwise. */
export function cleanContentType(raw: string | undefined): string {
  const base = (raw ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return MIME_SHAPE.test(base) ? base : DEFAULT_CONTENT_TYPE;
}

/** Types a browser may show in the tab without running anything of the file's (no HTML, SVG, XML). */
const INLINE_SAFE =
  /^(image\/(png|jpeg|gif|webp|avif)|video\/(mp4|webm|ogg)|audio\/(mpeg|ogg|wav|webm|mp4)|text\/plain)$/;
export const isInlineSafe = (contentType: string) => INLINE_SAFE.test(contentType);
