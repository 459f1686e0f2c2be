import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { purgeAbandonedUploads } from '../src/modules/files/index.js';
import { createTestApp, type TestApp } from './helpers.js';
import { downloadUrl, multipartBody, share, signedInUser, upload, validateUrl } from './files-helpers.js';
import { closedPort, startS3, type TestS3 } from './s3-server.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const KIB = 1024;
const QUOTA_EXCEEDED = {
  error_code: 'ERR_STORAGE_QUOTA_EXCEEDED',
  message: 'Not enough storage space left for this file. Delete some files and try again.',
};

/** Where a backend's objects can be listed by the test (not through the server under test). */
interface Backend {
  env: Record<string, string>;
  objects(t: TestApp): Promise<string[]>;
  stop(): Promise<void>;
}
const backends: [string, () => Promise<Backend>][] = [
  [
    'disk',
    async () => ({
      env: {},
      objects: async (t) => readdirSync(join(t.dataDir, 'files')).filter((n) => !n.startsWith('.')),
      stop: async () => undefined,
    }),
  ],
  [
    's3',
    async () => {
      const s3: TestS3 = await startS3();
      return { env: s3.env, objects: () => s3.objectKeys(), stop: () => s3.stop() };
    },
  ],
];

async function holds(t: TestApp): Promise<number> {
  return (await t.app.db.kysely.selectFrom('file_reservations').selectAll().execute()).length;
}
async function listing(t: TestApp, auth: Record<string, string>) {
  const res = await t.app.inject({ method: 'GET', url: '/api/files', headers: auth });
  return res.json() as { data: { _id: string }[]; used_bytes: number; quota_bytes: number };
}

describe.each(backends)('files API on %s storage', (_name, start) => {
  let backend: Backend;
  let t: TestApp;
  beforeAll(async () => {
    backend = await start();
    // 64 KiB per file, 200 KiB per user: small enough to fill in a test.
    t = await createTestApp({ ...backend.env, MAX_UPLOAD_MB: String(64 / 1024), STORAGE_QUOTA_MB: String(200 / 1024) });
  });
  afterAll(async () => {
    await t.close();
    await backend.stop();
  });
  let listening: Promise<string> | undefined;
  const address = () => (listening ??= t.app.listen({ port: 0, host: '127.0.0.1' }));

  it('uploads, lists with usage, downloads byte-exact with Range and a stable ETag, deletes the object', async () => {
    const user = await signedInUser(t.app);
    const content = randomBytes(50_000);
    const before = await backend.objects(t);
    const file = (await upload(t.app, user.auth, content)).json();
    expect(file.size).toBe(50_000);
    const added = (await backend.objects(t)).filter((k) => !before.includes(k));
    expect(added).toHaveLength(1);
    expect(await listing(t, user.auth)).toEqual({
      data: [expect.objectContaining({ _id: file._id })],
      used_bytes: 50_000,
      quota_bytes: 200 * KIB,
    });

    const key = (await share(t.app, user.auth, file._id)).json().share_key as string;
    const whole = await t.app.inject({ method: 'GET', url: downloadUrl(file._id, key) });
    expect(whole.statusCode).toBe(200);
    expect(sha(whole.rawPayload)).toBe(sha(content));
    // The ETag is the content's SHA-256 on every backend (never the store's own tag).
    expect(whole.headers.etag).toBe(`"${createHash('sha256').update(content).digest('base64url')}"`);
    const range = await t.app.inject({
      method: 'GET',
      url: downloadUrl(file._id, key),
      headers: { range: 'bytes=1000-1999', 'if-range': whole.headers.etag as string },
    });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe('bytes 1000-1999/50000');
    expect(range.headers.etag).toBe(whole.headers.etag);
    expect(range.rawPayload.equals(content.subarray(1000, 2000))).toBe(true);
    const suffix = await t.app.inject({
      method: 'GET',
      url: downloadUrl(file._id, key),
      headers: { range: 'bytes=-10' },
    });
    expect(suffix.rawPayload.equals(content.subarray(-10))).toBe(true);
    const cached = await t.app.inject({
      method: 'GET',
      url: downloadUrl(file._id, key),
      headers: { 'if-none-match': whole.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
    expect((await t.app.inject({ method: 'GET', url: validateUrl(file._id, key) })).statusCode).toBe(200);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/files/${file._id}`, headers: user.auth });
    expect(removed.json()).toEqual({ ok: true });
    expect(await backend.objects(t)).toEqual(before);
    expect(await listing(t, user.auth)).toEqual({ data: [], used_bytes: 0, quota_bytes: 200 * KIB });
  });

  it('keeps no object, row or quota hold of an upload over the size limit', async () => {
    const user = await signedInUser(t.app);
    const before = await backend.objects(t);
    const res = await upload(t.app, user.auth, randomBytes(64 * KIB + 1));
    expect(res.statusCode).toBe(413);
    expect(res.json().error_code).toBe('ERR_FILE_TOO_LARGE');
    expect(await backend.objects(t)).toEqual(before);
    expect((await listing(t, user.auth)).used_bytes).toBe(0);
    expect(await holds(t)).toBe(0);
  });

  it('lets exactly the parallel uploads that fit the quota succeed; the others get the quota error and leave nothing', async () => {
    const user = await signedInUser(t.app);
    const before = await backend.objects(t);
    // 200 KiB quota, six files of 60 000 bytes: three fit (180 000), a fourth would not (240 000).
    const contents = Array.from({ length: 6 }, () => randomBytes(60_000));
    const answers = await Promise.all(contents.map((c) => upload(t.app, user.auth, c)));
    const ok = answers.filter((r) => r.statusCode === 201);
    const refused = answers.filter((r) => r.statusCode !== 201);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(3);
    for (const res of refused) {
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual(QUOTA_EXCEEDED);
    }
    expect((await backend.objects(t)).length - before.length).toBe(3);
    expect(await listing(t, user.auth)).toMatchObject({ used_bytes: 180_000, quota_bytes: 200 * KIB });
    expect(await holds(t)).toBe(0);

    // What is left (24 800 bytes) still takes a file that fits it exactly, then nothing more.
    const rest = 200 * KIB - 180_000;
    expect((await upload(t.app, user.auth, randomBytes(rest))).statusCode).toBe(201);
    expect((await upload(t.app, user.auth, randomBytes(1))).json()).toEqual(QUOTA_EXCEEDED);
    // Deleting a file gives its bytes back.
    const victim = (await listing(t, user.auth)).data[0]!._id;
    await t.app.inject({ method: 'DELETE', url: `/api/files/${victim}`, headers: user.auth });
    expect((await upload(t.app, user.auth, randomBytes(1))).statusCode).toBe(201);
  });

  it('keeps no object, row or quota hold when the client disconnects mid-upload', async () => {
    const user = await signedInUser(t.app);
    const base = new URL(await address());
    const before = await backend.objects(t);
    const body = multipartBody(randomBytes(60_000));
    const socket = connect(Number(base.port), '127.0.0.1');
    socket.on('error', () => undefined);
    const head = Object.entries({ ...user.auth, ...body.headers, 'content-length': String(body.payload.length) })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`POST /api/files HTTP/1.1\r\nhost: 127.0.0.1\r\n${head}\r\n`);
    socket.write(body.payload.subarray(0, 30_000));
    // The upload is streaming once its quota hold exists; then the client goes away.
    await expect.poll(() => holds(t), { timeout: 5000 }).toBe(1);
    socket.destroy();
    await expect.poll(() => holds(t), { timeout: 5000 }).toBe(0);
    expect(await backend.objects(t)).toEqual(before);
    expect(await listing(t, user.auth)).toMatchObject({ data: [], used_bytes: 0 });
  });

  it('the purge job deletes what an upload killed before its row was written left behind, nothing else', async () => {
    const user = await signedInUser(t.app);
    const db = t.app.db.kysely;
    const stored = async () => {
      const res = await upload(t.app, user.auth, randomBytes(1_000));
      expect(res.statusCode).toBe(201);
      return db.selectFrom('files').selectAll().where('id', '=', res.json()._id).executeTakeFirstOrThrow();
    };
    // What a SIGKILL between the stored object and its row leaves: the object under the hold's id, the
    // hold (expired by now), no file row. Made from a real upload by taking its row back out.
    const killed = await stored();
    await db.deleteFrom('files').where('id', '=', killed.id).execute();
    const hold = (id: string, expiresAt: number) =>
      db
        .insertInto('file_reservations')
        .values({ id, user_id: user.id, bytes: 1_000, expires_at: expiresAt })
        .execute();
    await hold(killed.storage_key, Date.now() - 1);
    // Kept: a file whose expired hold was somehow left (its row names the object), and an upload still
    // in progress (its hold has not expired).
    const kept = await stored();
    await hold(kept.storage_key, Date.now() - 1);
    const running = await stored();
    await db.deleteFrom('files').where('id', '=', running.id).execute();
    await hold(running.storage_key, Date.now() + 3_600_000);
    expect(await backend.objects(t)).toEqual(expect.arrayContaining([killed.storage_key, kept.storage_key]));

    expect(await purgeAbandonedUploads(db, t.app.storage)).toBe(1);
    const objects = await backend.objects(t);
    expect(objects).not.toContain(killed.storage_key);
    expect(objects).toEqual(expect.arrayContaining([kept.storage_key, running.storage_key]));
    expect((await db.selectFrom('file_reservations').select('id').execute()).map((r) => r.id)).toEqual([
      running.storage_key,
    ]);
    const key = (await share(t.app, user.auth, kept.id)).json().share_key as string;
    expect((await t.app.inject({ method: 'GET', url: downloadUrl(kept.id, key) })).statusCode).toBe(200);
    // Nothing left to do: a second run (another instance, the next hour) deletes nothing.
    expect(await purgeAbandonedUploads(db, t.app.storage)).toBe(0);
    await db.deleteFrom('file_reservations').execute();
  });

  it('enforces the quota on an upload that declares no length (chunked), keeping nothing', async () => {
    const user = await signedInUser(t.app);
    const base = await address();
    const send = (content: Buffer) => {
      const body = multipartBody(content);
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${base}/api/files`, {
          method: 'POST',
          headers: { ...user.auth, ...body.headers, 'transfer-encoding': 'chunked' },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        for (let at = 0; at < body.payload.length; at += 16 * KIB) req.write(body.payload.subarray(at, at + 16 * KIB));
        req.end();
      });
    };
    expect((await send(randomBytes(60_000))).status).toBe(201);
    expect((await send(randomBytes(60_000))).status).toBe(201);
    expect((await send(randomBytes(60_000))).status).toBe(201);
    const before = await backend.objects(t);
    const over = await send(randomBytes(60_000));
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toEqual(QUOTA_EXCEEDED);
    expect(await backend.objects(t)).toEqual(before);
    expect((await listing(t, user.auth)).used_bytes).toBe(180_000);
    expect(await holds(t)).toBe(0);
  });
});

describe.each(backends)('files API on %s storage, a file of several multipart parts', (_name, start) => {
  let backend: Backend;
  let t: TestApp;
  beforeAll(async () => {
    backend = await start();
    t = await createTestApp({ ...backend.env, MAX_UPLOAD_MB: '32', STORAGE_QUOTA_MB: '64' });
  });
  afterAll(async () => {
    await t.close();
    await backend.stop();
  });

  it('uploads 17 MiB (four multipart parts on S3) and downloads it byte-exact, whole and by range', async () => {
    const user = await signedInUser(t.app);
    const content = randomBytes(17 * 1024 * KIB);
    const res = await upload(t.app, user.auth, content, 'form-data; name="file"; filename="big.bin"');
    expect(res.statusCode).toBe(201);
    const file = res.json();
    expect(file.size).toBe(content.length);
    expect(await backend.objects(t)).toHaveLength(1);
    const key = (await share(t.app, user.auth, file._id)).json().share_key as string;
    const whole = await t.app.inject({ method: 'GET', url: downloadUrl(file._id, key) });
    expect(sha(whole.rawPayload)).toBe(sha(content));
    const across = await t.app.inject({
      method: 'GET',
      url: downloadUrl(file._id, key),
      headers: { range: `bytes=${8 * 1024 * KIB - 10}-${8 * 1024 * KIB + 9}` },
    });
    expect(across.statusCode).toBe(206);
    expect(across.rawPayload.equals(content.subarray(8 * 1024 * KIB - 10, 8 * 1024 * KIB + 10))).toBe(true);
  });
});

describe('files API while the object store is down', () => {
  let s3: TestS3;
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signedInUser>>;
  let fileId: string;
  let key: string;
  beforeAll(async () => {
    s3 = await startS3();
    t = await createTestApp(s3.env);
    user = await signedInUser(t.app);
    fileId = (await upload(t.app, user.auth, Buffer.from('kept while the store is down'))).json()._id;
    key = (await share(t.app, user.auth, fileId)).json().share_key;
    await s3.stop();
  });
  afterAll(async () => t.close());

  const expectUnavailable = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) => {
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('10');
    expect(res.json()).toEqual({
      error_code: 'ERR_STORAGE_UNAVAILABLE',
      message: 'File storage is unavailable right now. Please try again in a moment.',
    });
  };

  it('answers 503 with Retry-After to link checks, downloads, deletions and uploads; changes nothing', async () => {
    expectUnavailable(await t.app.inject({ method: 'GET', url: validateUrl(fileId, key) }));
    expectUnavailable(await t.app.inject({ method: 'GET', url: downloadUrl(fileId, key) }));
    expectUnavailable(await t.app.inject({ method: 'DELETE', url: `/api/files/${fileId}`, headers: user.auth }));
    expectUnavailable(await upload(t.app, user.auth, randomBytes(2000)));
    const list = await listing(t, user.auth);
    expect(list.data.map((f) => f._id)).toEqual([fileId]);
    expect(list.used_bytes).toBe('kept while the store is down'.length);
    expect(await holds(t)).toBe(0);
    // A stranger still learns nothing: an invalid key is refused before the store is asked.
    const stranger = await t.app.inject({
      method: 'GET',
      url: validateUrl(fileId, randomBytes(32).toString('base64url')),
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('starts with an unreachable store, answers uploads 503 and counts the failures in /metrics', async () => {
    const token = 'metrics-token-0123456789';
    const down = await createTestApp({
      ...s3.env,
      S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
      METRICS_TOKEN: token,
    });
    try {
      const someone = await signedInUser(down.app);
      expectUnavailable(await upload(down.app, someone.auth, randomBytes(100)));
      expect((await down.app.db.kysely.selectFrom('files').selectAll().execute()).length).toBe(0);
      const metrics = await down.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(metrics.body).toMatch(/^suite_storage_errors_total\{operation="put"\} [1-9]/m);
    } finally {
      await down.close();
    }
  });
});
