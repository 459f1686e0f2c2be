/**
 * Length in Unicode code points, the unit of the spec's password rule (6–64 characters): an emoji
 * counts once, as the user sees it, not as two UTF-16 units. Server and web count with this alone.
 */
export function textLength(value: string): number {
  return [...value].length;
}

/** Longest display name (first name, last name, guest name, meeting name), in code points. */
export const DISPLAY_NAME_MAX_LENGTH = 100;

/**
 * Characters no name may hold (after the NFC normalisation): controls (Cc: C0, DEL, C1 such as U+0085),
 * format characters (Cf: bidi embeddings/overrides/isolates U+202A–202E and U+2066–2069, zero-width
 * characters, soft hyphen, BOM…), surrogates (Cs), private use (Co) and the line and paragraph
 * separators U+2028/U+2029. They garble a mail subject, reorder what other people read (U+202E) or
 * hide text. Exception, as in RFC 5892 (CONTEXTJ) and the PRECIS nickname profile (RFC 8266): a zero
 * width (non-)joiner right after a combining mark (a virama in Devanagari) shapes a conjunct and stays.
 */
const FORBIDDEN_IN_NAMES = /(?<!\p{M})[\u200c\u200d]|[\p{Cc}\p{Cs}\p{Co}\p{Zl}\p{Zp}]|(?![\u200c\u200d])\p{Cf}/gu;

export type DisplayNameCheck =
  { ok: true; value: string } | { ok: false; problem: 'empty' | 'too_long' | 'forbidden_character' };

/**
 * The one display-name rule of server and web: NFC, trimmed, runs of spaces made one, not empty, at most
 * `max` code points, no forbidden character (above). `value` is what is stored and shown.
 */
export function checkDisplayName(raw: string, max: number = DISPLAY_NAME_MAX_LENGTH): DisplayNameCheck {
  const normalized = raw.normalize('NFC');
  if (new RegExp(FORBIDDEN_IN_NAMES.source, 'u').test(normalized)) return { ok: false, problem: 'forbidden_character' };
  const value = normalized.trim().replace(/\s+/g, ' ');
  if (!value) return { ok: false, problem: 'empty' };
  if (textLength(value) > max) return { ok: false, problem: 'too_long' };
  return { ok: true, value };
}

/**
 * The same rule for a name we did not get typed (an uploaded file's name, a name stored before the
 * rule): forbidden characters are removed instead of refused, then trimmed and shortened to `max`.
 */
export function cleanDisplayName(raw: string, max: number = DISPLAY_NAME_MAX_LENGTH): string {
  const value = raw.normalize('NFC').replace(FORBIDDEN_IN_NAMES, '').trim().replace(/\s+/g, ' ');
  return [...value].slice(0, max).join('').trim();
}
