import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { insertSignedInUser } from './helpers.js';

/** A confirmed user straight in the database, with a session token (accounts are built elsewhere). */
export async function signedInUser(app: FastifyInstance, email = `u${randomBytes(4).toString('hex')}@acme.test`) {
  const { id, token } = await insertSignedInUser(app, { email, first: 'Ada', last: 'Lovelace' });
  return { id, email, token, auth: { authorization: `Bearer ${token}` } };
}

/**
 * A multipart/form-data body with one file part. `disposition` is the raw part header, so tests can
 * send names a browser would encode differently (RFC 5987 `filename*`, quotes, control characters).
 */
export function multipartBody(
  content: Buffer,
  disposition = 'form-data; name="file"; filename="hello.txt"',
  type = 'text/plain',
) {
  const boundary = `----suite${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${type}\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head, 'utf8'), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(
  app: FastifyInstance,
  auth: Record<string, string>,
  content: Buffer,
  disposition?: string,
  type?: string,
) {
  const body = multipartBody(content, disposition, type);
  return app.inject({
    method: 'POST',
    url: '/api/files',
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
}

export async function share(app: FastifyInstance, auth: Record<string, string>, fileId: string, expiresAt?: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/files/${fileId}/shares`,
    headers: auth,
    payload: expiresAt ? { expires_at: expiresAt } : {},
  });
  return res;
}

export const validateUrl = (fileId: string, key: string) =>
  `/api/file/${encodeURIComponent(fileId)}/validating_link?share_key=${encodeURIComponent(key)}`;
export const downloadUrl = (fileId: string, key: string) =>
  `/api/file/${encodeURIComponent(fileId)}/download_link?share_key=${encodeURIComponent(key)}&force_download=true`;
