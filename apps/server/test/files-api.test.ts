import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, type TestApp } from './helpers.js';
import { downloadUrl, multipartBody, share, signedInUser, upload } from './files-helpers.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('files: upload, list, delete', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof signedInUser>>;
  let bob: Awaited<ReturnType<typeof signedInUser>>;
  const filesDir = () => join(t.dataDir, 'files');

  beforeAll(async () => {
    // 64 KiB limit keeps the oversize cases small.
    t = await createTestApp({ MAX_UPLOAD_MB: String(64 / 1024) });
    alice = await signedInUser(t.app);
    bob = await signedInUser(t.app);
  });
  afterAll(async () => t.close());

  it('answers a multipart body without its closing boundary 400, storing nothing (was 500)', async () => {
    const body = multipartBody(randomBytes(3000));
    const cut = body.payload.subarray(0, body.payload.length - 20);
    const before = readdirSync(filesDir(), { recursive: true }).length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...alice.auth, ...body.headers },
      payload: cut,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error_code).toBe('ERR_REQUEST');
    expect(readdirSync(filesDir(), { recursive: true }).length).toBe(before);
  });

  it('refuses uploads without a session', async () => {
    const res = await upload(t.app, {}, Buffer.from('x'));
    expect(res.statusCode).toBe(401);
    expect(res.json().error_code).toBe('ERR_INVALID_ACCESS_TOKEN');
  });

  it('stores an upload with its name, type and size, and lists it for its owner only', async () => {
    const content = randomBytes(5000);
    const res = await upload(
      t.app,
      alice.auth,
      content,
      'form-data; name="file"; filename="report.pdf"',
      'application/pdf',
    );
    expect(res.statusCode).toBe(201);
    const file = res.json();
    expect(file).toMatchObject({ name: 'report.pdf', content_type: 'application/pdf', size: 5000 });
    expect(file._id).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const mine = await t.app.inject({ method: 'GET', url: '/api/files', headers: alice.auth });
    expect(mine.json().data.map((f: { _id: string }) => f._id)).toContain(file._id);
    const theirs = await t.app.inject({ method: 'GET', url: '/api/files', headers: bob.auth });
    expect(theirs.json().data).toEqual([]);

    const link = (await share(t.app, alice.auth, file._id)).json();
    const got = await t.app.inject({ method: 'GET', url: downloadUrl(file._id, link.share_key) });
    expect(sha(got.rawPayload)).toBe(sha(content));
  });

  it('keeps only a safe display name; the bytes live under a generated id inside DATA_DIR/files', async () => {
    const before = new Set(readdirSync(filesDir()));
    const res = await upload(
      t.app,
      alice.auth,
      Buffer.from('root:x:0:0'),
      'form-data; name="file"; filename="../../etc/passwd"',
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('passwd');
    const added = readdirSync(filesDir()).filter((n) => !before.has(n));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const windows = await upload(
      t.app,
      alice.auth,
      Buffer.from('x'),
      'form-data; name="file"; filename="C:\\\\temp\\\\..\\\\boot.ini"',
    );
    expect(windows.json().name).toBe('boot.ini');
  });

  it('keeps quotes and unicode of a browser-encoded name, drops line breaks and bidi overrides', async () => {
    // How Chromium sends `my "quoted"<CR><LF>name <RLO>exe.txt ✓ 日本.txt`.
    const disposition = 'form-data; name="file"; filename="my %22quoted%22%0D%0Aname \u202eexe.txt \u2713 日本.txt"';
    const res = await upload(t.app, alice.auth, Buffer.from('hi'), disposition);
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('my "quoted"name exe.txt \u2713 日本.txt');
  });

  it('falls back to a neutral type when the declared one is malformed', async () => {
    const res = await upload(t.app, alice.auth, Buffer.from('x'), undefined, 'text/html<script>');
    expect(res.json().content_type).toBe('application/octet-stream');
  });

  it('answers 413 ERR_FILE_TOO_LARGE for a file over the limit and leaves nothing behind', async () => {
    const before = readdirSync(filesDir()).sort();
    const listBefore = (await t.app.inject({ method: 'GET', url: '/api/files', headers: alice.auth })).json().data;
    // Just over the limit: passes the declared-length check, stopped while streaming.
    const streamed = await upload(t.app, alice.auth, randomBytes(64 * 1024 + 1));
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toEqual({
      error_code: 'ERR_FILE_TOO_LARGE',
      message: 'The file is larger than the allowed size.',
    });
    // Far over: refused from its Content-Length before reading.
    const declared = await upload(t.app, alice.auth, randomBytes(400 * 1024));
    expect(declared.statusCode).toBe(413);
    expect(declared.json().error_code).toBe('ERR_FILE_TOO_LARGE');

    expect(readdirSync(filesDir()).sort()).toEqual(before);
    const listAfter = (await t.app.inject({ method: 'GET', url: '/api/files', headers: alice.auth })).json().data;
    expect(listAfter).toEqual(listBefore);
  });

  it('accepts a file of exactly the limit', async () => {
    const res = await upload(t.app, alice.auth, randomBytes(64 * 1024));
    expect(res.statusCode).toBe(201);
    expect(res.json().size).toBe(64 * 1024);
  });

  it('answers 400 when the request carries no file', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/files', headers: alice.auth, payload: { a: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe('ERR_VALIDATION');
  });

  it('deletes an own file with its bytes and its links; someone else cannot', async () => {
    const file = (await upload(t.app, alice.auth, Buffer.from('bye'))).json();
    const link = (await share(t.app, alice.auth, file._id)).json();
    const count = readdirSync(filesDir()).length;

    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/files/${file._id}`, headers: bob.auth });
    expect(foreign.statusCode).toBe(404);

    const res = await t.app.inject({ method: 'DELETE', url: `/api/files/${file._id}`, headers: alice.auth });
    expect(res.json()).toEqual({ ok: true });
    expect(readdirSync(filesDir()).length).toBe(count - 1);
    const gone = await t.app.inject({ method: 'GET', url: downloadUrl(file._id, link.share_key) });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error_code).toBe('ERR_FILE_LINK_INVALID');
    const shares = await t.app.inject({ method: 'GET', url: `/api/files/${file._id}/shares`, headers: alice.auth });
    expect(shares.statusCode).toBe(404);
  });
});

describe('files: share links', () => {
  let t: TestApp;
  let alice: Awaited<ReturnType<typeof signedInUser>>;
  let bob: Awaited<ReturnType<typeof signedInUser>>;
  let fileId: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signedInUser(t.app);
    bob = await signedInUser(t.app);
    fileId = (await upload(t.app, alice.auth, Buffer.from('shared'))).json()._id;
  });
  afterAll(async () => t.close());

  it('creates a link with a 256-bit key shown once, stored only as its SHA-256', async () => {
    const res = await share(t.app, alice.auth, fileId);
    expect(res.statusCode).toBe(201);
    const link = res.json();
    expect(link.share_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`http://localhost:8080/file/${fileId}/download_link?share_key=${link.share_key}`);
    expect(link).toMatchObject({ file_id: fileId, expires_at: null, revoked: false });

    const row = await t.app.db.kysely
      .selectFrom('file_shares')
      .selectAll()
      .where('id', '=', link._id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(link.share_key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(link.share_key);

    const list = await t.app.inject({ method: 'GET', url: `/api/files/${fileId}/shares`, headers: alice.auth });
    const listed = list.json().data.find((s: { _id: string }) => s._id === link._id);
    expect(listed.share_key).toBeUndefined();
  });

  it('keeps an expiry and refuses one in the past', async () => {
    const future = new Date(Date.now() + 3600_000).toISOString();
    const res = await share(t.app, alice.auth, fileId, future);
    expect(res.json().expires_at).toBe(future);
    const past = await share(t.app, alice.auth, fileId, new Date(Date.now() - 1000).toISOString());
    expect(past.statusCode).toBe(400);
    expect(past.json().details).toEqual([{ path: 'expires_at', message: 'must be in the future' }]);
    const garbage = await share(t.app, alice.auth, fileId, 'tomorrow');
    expect(garbage.statusCode).toBe(400);
  });

  it('lets only the owner create, list and revoke links', async () => {
    expect((await share(t.app, bob.auth, fileId)).statusCode).toBe(404);
    const link = (await share(t.app, alice.auth, fileId)).json();
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${fileId}/shares/${link._id}`,
      headers: bob.auth,
    });
    expect(foreign.statusCode).toBe(404);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${fileId}/shares/${link._id}`,
      headers: alice.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().revoked).toBe(true);
    const unknown = await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${fileId}/shares/nope`,
      headers: alice.auth,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('disk storage', () => {
  it('removes partial writes a crash left behind, and only old ones', async () => {
    const { mkdtempSync, writeFileSync, utimesSync, existsSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { createDiskStorage } = await import('../src/plugins/storage.js');
    const root = mkdtempSync(join(tmpdir(), 'storage-'));
    const old = join(root, '.abc.part');
    const fresh = join(root, '.def.part');
    writeFileSync(old, 'x');
    writeFileSync(fresh, 'y');
    const yesterday = (Date.now() - 25 * 3600 * 1000) / 1000;
    utimesSync(old, yesterday, yesterday);
    const storage = createDiskStorage(root);
    expect(await storage.stat('nothing-here-0123456789')).toBeNull();
    await storage.delete('nothing-here-0123456789');
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    await expect(storage.get('../../etc/passwd')).rejects.toThrow('invalid storage key');
    rmSync(root, { recursive: true, force: true });
  });
});
