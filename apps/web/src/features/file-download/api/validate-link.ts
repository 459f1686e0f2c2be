import { FILE_API, API_PREFIX, apiPath, type ErrorCode } from '@suite/contract/core';
import type { z } from 'zod';
import type { ValidatingLinkResponseSchema } from '@suite/contract/core';
import { apiRequest } from '../../../lib/api-client';

export type LinkInfo = z.infer<typeof ValidatingLinkResponseSchema>;

/** `GET /file/{fileId}/validating_link?share_key=` (spec §7): 200 means the link is valid. */
export function validateLink(fileId: string, shareKey: string, signal?: AbortSignal): Promise<LinkInfo> {
  return apiRequest<LinkInfo>({
    path: FILE_API.validatingLink,
    params: { fileId },
    query: { share_key: shareKey },
    signal,
  });
}

/** Where the browser navigates for the forced download (spec §7). */
export function forcedDownloadUrl(fileId: string, shareKey: string): string {
  const query = new URLSearchParams({ share_key: shareKey, force_download: 'true' });
  return `${API_PREFIX}${apiPath(FILE_API.downloadLink, { fileId })}?${query}`;
}

/** The link states the server names; anything else shows the default error. */
export const LINK_ERROR_CODES = [
  'ERR_FILE_LINK_INVALID',
  'ERR_FILE_LINK_EXPIRED',
  'ERR_FILE_LINK_PROCESSING_FAILED',
] as const satisfies readonly ErrorCode[];
export const DEFAULT_LINK_ERROR = 'ERR_FILE_DOWNLOAD_LINK_DEFAULT' satisfies ErrorCode;
