import '../zod-config.js';
import { z } from 'zod';
import { idSchema } from './common.js';

/** Up to the router's 200-character limit, so a mangled link answers "invalid" rather than a validation error. */
export const FileIdParamsSchema = z.object({ fileId: idSchema(200) });
export const ShareKeyQuerySchema = z.object({
  share_key: z.string().max(256).optional(),
  force_download: z.enum(['true', 'false']).optional(),
});

export const StoredFileSchema = z.object({
  _id: z.string(),
  name: z.string(),
  content_type: z.string(),
  size: z.number(),
  created_at: z.string(),
});
export type StoredFile = z.infer<typeof StoredFileSchema>;
/** The owner's files, newest first, with the bytes they take and the owner's quota (STORAGE_QUOTA_MB). */
export const FileListSchema = z.object({
  data: z.array(StoredFileSchema),
  used_bytes: z.number(),
  quota_bytes: z.number(),
});
export type FileListing = z.infer<typeof FileListSchema>;

export const CreateShareRequestSchema = z.object({
  /** Absolute expiry; omitted means the link does not expire. */
  expires_at: z.iso.datetime().optional(),
});
export const ShareLinkSchema = z.object({
  _id: z.string(),
  file_id: z.string(),
  expires_at: z.string().nullable(),
  revoked: z.boolean(),
  created_at: z.string(),
  /** Only present in the response that creates the link: the key is stored hashed. */
  share_key: z.string().optional(),
  url: z.string().optional(),
});
export type ShareLink = z.infer<typeof ShareLinkSchema>;
export const ShareListSchema = z.object({ data: z.array(ShareLinkSchema) });

export const ValidatingLinkResponseSchema = z.object({
  name: z.string(),
  size: z.number(),
  content_type: z.string(),
  /** Who shared it: the owner's display name (never an address), null when unknown or deactivated. */
  shared_by: z.string().nullable().optional(),
});
