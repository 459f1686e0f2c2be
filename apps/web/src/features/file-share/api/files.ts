import { FILE_API, type FileListing, type ShareLink } from '@suite/contract/core';
import { apiRequest } from '../../../lib/api-client';

/** The owner's calls on /files (one small function per endpoint). The list carries the space used and the quota. */
export const listFiles = () => apiRequest<FileListing>({ path: FILE_API.files, auth: true });

export const deleteFile = (fileId: string) =>
  apiRequest<{ ok: true }>({ method: 'DELETE', path: FILE_API.file, params: { fileId }, auth: true });

export const listShares = (fileId: string) =>
  apiRequest<{ data: ShareLink[] }>({ path: FILE_API.fileShares, params: { fileId }, auth: true }).then((r) => r.data);

/** `expiresAt` omitted: the link does not expire. The answer carries the key and URL, shown only this once. */
export const createShare = (fileId: string, expiresAt?: string) =>
  apiRequest<ShareLink>({
    method: 'POST',
    path: FILE_API.fileShares,
    params: { fileId },
    body: expiresAt ? { expires_at: expiresAt } : {},
    auth: true,
  });

export const revokeShare = (fileId: string, shareId: string) =>
  apiRequest<ShareLink>({ method: 'DELETE', path: FILE_API.fileShare, params: { fileId, shareId }, auth: true });
