/**
 * File paths of spec §7. Mounted under API_PREFIX;
 * API (paths.ts) is all of them. A table per area, each its own module: the web bundles a module whole
 * into one chunk, so the first screens' chunk carries only the paths they call.
 */
export const FILE_API = {
  files: '/files',
  file: '/files/:fileId',
  fileShares: '/files/:fileId/shares',
  fileShare: '/files/:fileId/shares/:shareId',
  validatingLink: '/file/:fileId/validating_link',
  downloadLink: '/file/:fileId/download_link',
} as const;
