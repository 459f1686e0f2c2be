import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from './helpers.js';
import { buildApp } from '../src/app.js';
import { downloadUrl, share, signedInUser, upload } from './files-helpers.js';

/** A built web app as the build writes it: each text file with its .br and .gz beside it. */
function writeDist(dir: string) {
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html><head><title>Suite</title></head><body><div id="root"></div>${'<!-- pad -->'.repeat(50)}</body></html>`,
    'assets/app-abc123.js': `console.log(${JSON.stringify('x'.repeat(2000))});`,
    'assets/app-abc123.css': `body{color:red}${'.a{margin:0}'.repeat(100)}`,
    'favicon.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(100)}</svg>`,
  };
  mkdirSync(join(dir, 'assets'), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const body = Buffer.from(text);
    writeFileSync(join(dir, name), body);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(body));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(body));
  }
  return files;
}

describe('compressed web assets', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let files: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    const dist = join(t.dataDir, 'web');
    files = writeDist(dist);
    app = await buildApp({ ...t.config, webDist: dist }, { logger: false });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('sends the brotli file to a browser that takes br, gzip to one that takes only gzip, else identity', async () => {
    const br = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(files['assets/app-abc123.js']);

    const gz = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(files['assets/app-abc123.js']);

    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(files['assets/app-abc123.js']);

    const refused = await get('/assets/app-abc123.js', { 'accept-encoding': 'br;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');
    const css = await get('/assets/app-abc123.css', { 'accept-encoding': 'br' });
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('caches hashed assets for a year and makes the HTML revalidate with its ETag (304)', async () => {
    const asset = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await get('/user/login', { 'accept-encoding': 'br', accept: 'text/html' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toBe('Accept-Encoding');
    const etag = String(page.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(files['index.html']);
    const again = await get('/guest', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another encoding is another representation: its ETag differs, so a cached br body is never reused for it.
    const gz = await get('/guest', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers.etag).not.toBe(etag);
    const icon = await get('/favicon.svg', { 'accept-encoding': 'br' });
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['content-encoding']).toBe('br');
  });

  it('keeps the security headers on static answers', async () => {
    const page = await get('/user/login', { accept: 'text/html' });
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('compressed API answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('compresses JSON over 1 KiB for a client that takes it, and leaves small JSON as it is', async () => {
    const big = await t.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.vary).toContain('Accept-Encoding');
    const doc = JSON.parse(brotliDecompressSync(big.rawPayload).toString());
    expect(doc.openapi).toMatch(/^3\./);
    const gz = await t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString()).openapi).toMatch(/^3\./);
    const none = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.json().openapi).toMatch(/^3\./);

    const small = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().status).toBe('ok');
  });

  it('never compresses a shared-file download, whole or a range, even of a compressible type', async () => {
    const owner = await signedInUser(t.app);
    const content = Buffer.from(JSON.stringify({ rows: Array.from({ length: 400 }, (_, i) => ({ i })) }));
    const fileId = (
      await upload(t.app, owner.auth, content, 'form-data; name="file"; filename="data.json"', 'application/json')
    ).json()._id;
    const key = (await share(t.app, owner.auth, fileId)).json().share_key;
    const whole = await t.app.inject({
      method: 'GET',
      url: downloadUrl(fileId, key),
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.rawPayload.equals(content)).toBe(true);
    const part = await t.app.inject({
      method: 'GET',
      url: downloadUrl(fileId, key),
      headers: { 'accept-encoding': 'br, gzip', range: 'bytes=0-99' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.rawPayload.equals(content.subarray(0, 100))).toBe(true);
  });
});
