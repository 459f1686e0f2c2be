import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { createTestApp, type TestApp } from './helpers.js';
import { buildApp } from '../src/app.js';
import { downloadUrl, share, signedInUser, upload, validateUrl } from './files-helpers.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const INVALID = { error_code: 'ERR_FILE_LINK_INVALID', message: 'This download link is not valid.' };

describe('share links: validation and download', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  const content = randomBytes(10_000);
  let fileId: string;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    fileId = (
      await upload(
        t.app,
        owner.auth,
        content,
        'form-data; name="file"; filename="données \u2713.bin"',
        'application/x-thing',
      )
    ).json()._id;
    key = (await share(t.app, owner.auth, fileId)).json().share_key;
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('validates a good link without a session and describes the file', async () => {
    const res = await get(validateUrl(fileId, key));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      name: 'données \u2713.bin',
      size: 10_000,
      content_type: 'application/x-thing',
      shared_by: 'Ada Lovelace',
    });
    // The page names who shared it, never their address.
    expect(res.body).not.toContain(owner.email);
  });

  it('names no one once the owner is deactivated; the link still works', async () => {
    const other = await signedInUser(t.app);
    const id = (await upload(t.app, other.auth, Buffer.from('hello'))).json()._id;
    const otherKey = (await share(t.app, other.auth, id)).json().share_key;
    await t.app.db.kysely.updateTable('users').set({ active: 0 }).where('id', '=', other.id).execute();
    const res = await get(validateUrl(id, otherKey));
    expect(res.statusCode).toBe(200);
    expect(res.json().shared_by).toBeNull();
  });

  it('answers an unknown file, a wrong key, a missing key and a key of another file identically', async () => {
    const otherFile = (await upload(t.app, owner.auth, Buffer.from('other'))).json()._id;
    const otherKey = (await share(t.app, owner.auth, otherFile)).json().share_key;
    const wrongKey = randomBytes(32).toString('base64url');
    const cases = [
      validateUrl('no-such-file', key),
      validateUrl('no-such-file', wrongKey),
      validateUrl(fileId, wrongKey),
      validateUrl(fileId, otherKey),
      validateUrl(fileId, 'short'),
      `/api/file/${fileId}/validating_link`,
      validateUrl('x'.repeat(180), key),
    ];
    const answers = await Promise.all(cases.map((url) => get(url)));
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(INVALID);
    }
    // Byte-for-byte the same body and the same header names.
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    expect(
      new Set(
        answers.map((r) =>
          Object.keys(r.headers)
            .filter((h) => !/date|request-id/.test(h))
            .sort()
            .join(),
        ),
      ),
    ).toHaveProperty('size', 1);
    const dl = await get(downloadUrl('no-such-file', wrongKey));
    expect(dl.json()).toEqual(INVALID);
  });

  it('says expired for an expired link, to its holder only', async () => {
    const link = (await share(t.app, owner.auth, fileId, new Date(Date.now() + 60_000).toISOString())).json();
    expect((await get(validateUrl(fileId, link.share_key))).statusCode).toBe(200);
    await t.app.db.kysely
      .updateTable('file_shares')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', link._id)
      .execute();
    const res = await get(validateUrl(fileId, link.share_key));
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ error_code: 'ERR_FILE_LINK_EXPIRED', message: 'This download link has expired.' });
    const dl = await get(downloadUrl(fileId, link.share_key));
    expect(dl.statusCode).toBe(410);
    expect(dl.headers['content-disposition']).toBeUndefined();
  });

  it('says invalid once a link is revoked; other links of the file keep working', async () => {
    const link = (await share(t.app, owner.auth, fileId)).json();
    await t.app.inject({ method: 'DELETE', url: `/api/files/${fileId}/shares/${link._id}`, headers: owner.auth });
    expect((await get(validateUrl(fileId, link.share_key))).json()).toEqual(INVALID);
    expect((await get(downloadUrl(fileId, link.share_key))).statusCode).toBe(404);
    expect((await get(validateUrl(fileId, key))).statusCode).toBe(200);
  });

  it('downloads exactly the file as an attachment with an encoded name, type, length and ETag', async () => {
    const res = await get(downloadUrl(fileId, key));
    expect(res.statusCode).toBe(200);
    expect(sha(res.rawPayload)).toBe(sha(content));
    expect(res.headers['content-type']).toBe('application/x-thing');
    expect(res.headers['content-length']).toBe('10000');
    // An ISO-8859-1 fallback for old clients plus the exact UTF-8 name (RFC 6266 / 8187).
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="donn\u00e9es ?.bin"; filename*=UTF-8\'\'donn%C3%A9es%20%E2%9C%93.bin',
    );
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });

  it('serves a single range, an open range and a suffix range', async () => {
    const one = await get(downloadUrl(fileId, key), { range: 'bytes=100-199' });
    expect(one.statusCode).toBe(206);
    expect(one.headers['content-range']).toBe('bytes 100-199/10000');
    expect(one.headers['content-length']).toBe('100');
    expect(one.rawPayload.equals(content.subarray(100, 200))).toBe(true);

    const open = await get(downloadUrl(fileId, key), { range: 'bytes=9990-' });
    expect(open.headers['content-range']).toBe('bytes 9990-9999/10000');
    expect(open.rawPayload.equals(content.subarray(9990))).toBe(true);

    const suffix = await get(downloadUrl(fileId, key), { range: 'bytes=-500' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe('bytes 9500-9999/10000');
    expect(suffix.rawPayload.equals(content.subarray(9500))).toBe(true);

    const beyondEnd = await get(downloadUrl(fileId, key), { range: 'bytes=9000-20000' });
    expect(beyondEnd.headers['content-range']).toBe('bytes 9000-9999/10000');
  });

  it('answers 416 for an unsatisfiable range and the whole file for ranges it does not serve', async () => {
    const res = await get(downloadUrl(fileId, key), { range: 'bytes=10000-10010' });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */10000');
    expect(res.rawPayload.length).toBe(0);
    for (const range of ['bytes=0-1,5-6', 'lines=1-2', 'bytes=5-1']) {
      const full = await get(downloadUrl(fileId, key), { range });
      expect(full.statusCode).toBe(200);
      expect(full.rawPayload.length).toBe(10_000);
    }
  });

  it('honours If-Range and answers 304 to a matching If-None-Match', async () => {
    const { etag } = (await get(downloadUrl(fileId, key))).headers as { etag: string };
    const same = await get(downloadUrl(fileId, key), { range: 'bytes=0-9', 'if-range': etag });
    expect(same.statusCode).toBe(206);
    const changed = await get(downloadUrl(fileId, key), { range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.length).toBe(10_000);
    const cached = await get(downloadUrl(fileId, key), { 'if-none-match': etag });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    // Conditional requests still need a valid key.
    const stranger = await get(downloadUrl(fileId, randomBytes(32).toString('base64url')), { 'if-none-match': etag });
    expect(stranger.statusCode).toBe(404);
  });

  it('serves a risky type only as an attachment, even when an inline view is asked for', async () => {
    const html = (
      await upload(
        t.app,
        owner.auth,
        Buffer.from('<script>alert(1)</script>'),
        'form-data; name="file"; filename="x.html"',
        'text/html',
      )
    ).json();
    const htmlKey = (await share(t.app, owner.auth, html._id)).json().share_key;
    const res = await get(downloadUrl(html._id, htmlKey).replace('force_download=true', 'force_download=false'));
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    const png = (
      await upload(t.app, owner.auth, Buffer.from('png'), 'form-data; name="file"; filename="a.png"', 'image/png')
    ).json();
    const pngKey = (await share(t.app, owner.auth, png._id)).json().share_key;
    const inline = await get(downloadUrl(png._id, pngKey).replace('force_download=true', 'force_download=false'));
    expect(inline.headers['content-disposition']).toMatch(/^inline;/);
  });

  it('reports a processing failure when the stored bytes are gone', async () => {
    const file = (await upload(t.app, owner.auth, Buffer.from('soon gone'))).json();
    const link = (await share(t.app, owner.auth, file._id)).json();
    const row = await t.app.db.kysely
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', file._id)
      .executeTakeFirstOrThrow();
    rmSync(join(t.dataDir, 'files', row.storage_key));
    const res = await get(validateUrl(file._id, link.share_key));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error_code: 'ERR_FILE_LINK_PROCESSING_FAILED',
      message: 'The download link could not be processed.',
    });
    expect((await get(downloadUrl(file._id, link.share_key))).json().error_code).toBe(
      'ERR_FILE_LINK_PROCESSING_FAILED',
    );
  });

  it('answers HEAD with the headers of the download and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: downloadUrl(fileId, key) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('10000');
    expect(res.rawPayload.length).toBe(0);
  });

  it('downloads an empty file', async () => {
    const file = (await upload(t.app, owner.auth, Buffer.alloc(0))).json();
    const link = (await share(t.app, owner.auth, file._id)).json();
    const res = await get(downloadUrl(file._id, link.share_key));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('0');
  });
});

describe('share links over a real socket', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t.close());

  it('uploads with fetch and streams back the same bytes, whole and by range', async () => {
    const owner = await signedInUser(t.app);
    const content = randomBytes(3 * 1024 * 1024 + 17);
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'application/octet-stream' }), 'big.bin');
    const up = await fetch(`${base}/api/files`, { method: 'POST', headers: owner.auth, body: form });
    expect(up.status).toBe(201);
    const file = (await up.json()) as { _id: string };
    const key = (await share(t.app, owner.auth, file._id)).json().share_key as string;

    const whole = await fetch(`${base}${downloadUrl(file._id, key)}`);
    expect(sha(Buffer.from(await whole.arrayBuffer()))).toBe(sha(content));
    const tail = await fetch(`${base}${downloadUrl(file._id, key)}`, { headers: { range: 'bytes=-17' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(content.subarray(-17))).toBe(true);
  });

  it('answers 413 to an oversize upload over the socket', async () => {
    const small = await createTestApp({ MAX_UPLOAD_MB: '1' });
    const url = await small.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const owner = await signedInUser(small.app);
      const form = new FormData();
      form.append('file', new Blob([randomBytes(1024 * 1024 + 10)]), 'too-big.bin');
      const res = await fetch(`${url}/api/files`, { method: 'POST', headers: owner.auth, body: form });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error_code: string }).error_code).toBe('ERR_FILE_TOO_LARGE');
      const rows = await small.app.db.kysely.selectFrom('files').selectAll().execute();
      expect(rows).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe('share keys stay out of the logs', () => {
  it('logs neither the key nor the URL carrying it', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // A second, logging server on the same fresh database.
    const base = await createTestApp();
    const app = await buildApp({ ...base.config, logLevel: 'info' }, { logger: { level: 'info', stream } });
    await app.ready();
    try {
      const owner = await signedInUser(app);
      const fileId = (await upload(app, owner.auth, Buffer.from('secret'))).json()._id;
      const key = (await share(app, owner.auth, fileId)).json().share_key as string;
      expect((await app.inject({ method: 'GET', url: validateUrl(fileId, key) })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: downloadUrl(fileId, key) })).statusCode).toBe(200);
      await app.inject({ method: 'GET', url: `/file/${fileId}/download_link?share_key=${key}` }); // the web page
      expect(lines.some((l) => l.includes(`/api/file/${fileId}/download_link?share_key=[redacted]`))).toBe(true);
      expect(lines.join('\n')).not.toContain(key);
    } finally {
      await app.close();
      await base.close();
    }
  });
});

describe('share link rate limits', () => {
  it('limits link checks per address with a 429 and Retry-After', async () => {
    const t = await createTestApp({ RATE_LIMIT_SCALE: '0.05' });
    try {
      const url = validateUrl('some-file', randomBytes(32).toString('base64url'));
      const answers = [];
      for (let i = 0; i < 5; i += 1) answers.push(await t.app.inject({ method: 'GET', url }));
      const limited = answers.at(-1)!;
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error_code).toBe('ERR_RATE_LIMITED');
      expect(limited.headers['retry-after']).toBeDefined();
    } finally {
      await t.close();
    }
  });
});
