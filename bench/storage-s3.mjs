// Shared-file storage: upload and download throughput of the S3 backend (an s3rver on loopback, in its
// own process) against the disk backend, same file, same run, through the built storage modules the
// server uses (BENCH_S3_MB, default 256); and the built server's peak memory growth while a file of
// BENCH_S3_UPLOAD_MB (default 1024) is uploaded through POST /api/files into the S3 store: the upload
// streams, so it should stay near a few multipart parts whatever the file size.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { request } from 'node:http';
import { createAccounts, fmt, freePort, loginHeader, repo, start, startOurs, stop, waitHealthy } from './lib.mjs';

const MIB = 1024 * 1024;
const sizeMb = Number(process.env.BENCH_S3_MB ?? 256);
const uploadMb = Number(process.env.BENCH_S3_UPLOAD_MB ?? 1024);
const MEMORY_BUDGET_MIB = 64;
const WARM_UP_MB = 17;
/**
 * The ratio is reported, not budgeted: s3rver (a JavaScript test server writing files) bounds it, not
 * our code. The budget is an absolute floor: the S3 path keeps up with a 150 Mbit/s client link.
 */
const FLOOR_BYTES = 20 * MIB;
const FLOOR = 'ratio reported; S3 ≥ 20 MiB/s';
const dist = (file) => pathToFileURL(join(repo, 'apps/server/dist/src/plugins', file)).href;

/** `sizeMb` MiB in 64 KiB chunks, as an upload arrives (one random chunk repeated: no RAM for the file). */
function source() {
  const chunk = Buffer.alloc(64 * 1024, 7);
  return Readable.from(
    (function* chunks() {
      for (let sent = 0; sent < sizeMb * MIB; sent += chunk.length) yield chunk;
    })(),
  );
}
const drain = () =>
  new Writable({
    write: (_chunk, _encoding, done) => done(),
  });

async function measure(storage) {
  const key = `bench-${Date.now()}-0123456789`;
  let t0 = performance.now();
  await storage.put(key, source());
  const upload = (sizeMb * MIB) / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  await pipeline(await storage.get(key), drain());
  const download = (sizeMb * MIB) / ((performance.now() - t0) / 1000);
  await storage.delete(key);
  return { upload, download };
}

const statusKb = (pid, field) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** POST /api/files with a multipart body of `mib` MiB made on the fly (nothing of it held in memory). */
function uploadThrough(base, headers, mib) {
  const boundary = 'bench-boundary-0123456789';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="large.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Readable.from(
    (function* parts() {
      yield head;
      const chunk = Buffer.alloc(64 * 1024, 7);
      for (let sent = 0; sent < mib * MIB; sent += chunk.length) yield chunk;
      yield tail;
    })(),
  );
  const url = new URL('/api/files', base);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + mib * MIB + tail.length),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          res.statusCode === 201
            ? resolve(JSON.parse(text))
            : reject(new Error(`upload: HTTP ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    body.pipe(req);
  });
}

/**
 * The built server's peak RSS growth while `uploadMb` MiB are uploaded into the S3 store: RSS before
 * the upload (after a warm-up upload of WARM_UP_MB, three multipart parts: the code of the upload path is
 * loaded on first use, a one-time cost, not growth with the file), peak from the kernel's
 * high-water mark (VmHWM, reset just before: /proc/<pid>/clear_refs) and 20 ms samples.
 */
async function serverUploadGrowth(s3env) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-s3-server-'));
  const [account] = await createAccounts({ dataDir });
  const ours = await startOurs({
    dataDir,
    env: {
      ...s3env,
      MAX_UPLOAD_MB: String(uploadMb + 16),
      STORAGE_QUOTA_MB: String(uploadMb + WARM_UP_MB + 64),
      LOG_LEVEL: 'warn',
    },
  });
  try {
    const pid = ours.child.pid;
    const auth = await loginHeader(ours.base, account);
    const started = statusKb(pid, 'VmRSS');
    await uploadThrough(ours.base, auth, WARM_UP_MB);
    const before = statusKb(pid, 'VmRSS');
    let resetHwm = true;
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      resetHwm = false;
    }
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, statusKb(pid, 'VmRSS'))), 20);
    const t0 = performance.now();
    try {
      await uploadThrough(ours.base, auth, uploadMb);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - t0) / 1000;
    if (resetHwm) peak = Math.max(peak, statusKb(pid, 'VmHWM'));
    return {
      growth: (peak - before) / 1024,
      started: started / 1024,
      before: before / 1024,
      peak: peak / 1024,
      seconds,
    };
  } finally {
    await ours.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function startS3rver(dir) {
  const port = await freePort();
  // s3rver is a dev dependency of apps/server; resolved from there, run in its own process.
  const entry = createRequire(join(repo, 'apps/server/package.json')).resolve('s3rver');
  const script = `const S3rver = require(${JSON.stringify(entry)});
    new S3rver({ port: ${port}, address: '127.0.0.1', silent: true, directory: ${JSON.stringify(dir)},
      configureBuckets: [{ name: 'bench-files' }] }).run();`;
  const child = start(process.execPath, ['-e', script]);
  // Ready when the bucket answers (s3rver lists it at GET /bench-files).
  await waitHealthy(`http://127.0.0.1:${port}/bench-files`, performance.now(), { child });
  return { child, endpoint: `http://127.0.0.1:${port}` };
}

export default async function run() {
  const work = mkdtempSync(join(tmpdir(), 'bench-s3-'));
  const { createDiskStorage } = await import(dist('storage.js'));
  const { createS3Storage } = await import(dist('storage-s3.js'));
  const s3rver = await startS3rver(join(work, 's3'));
  const s3 = createS3Storage(
    {
      endpoint: s3rver.endpoint,
      bucket: 'bench-files',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    { warn: () => undefined },
  );
  try {
    const disk = await measure(createDiskStorage(join(work, 'disk')));
    const object = await measure(s3);
    const mb = (bytesPerSecond) => `${(bytesPerSecond / MIB).toFixed(0)} MiB/s`;
    const server = await serverUploadGrowth({
      S3_ENDPOINT: s3rver.endpoint,
      S3_BUCKET: 'bench-files',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    });
    return [
      {
        figure: `S3 upload throughput vs disk (${sizeMb} MiB, s3rver on loopback)`,
        budget: FLOOR,
        measured: `${fmt.ratio(object.upload / disk.upload)} (${mb(object.upload)} vs ${mb(disk.upload)})`,
        pass: object.upload >= FLOOR_BYTES,
      },
      {
        figure: `S3 download throughput vs disk (${sizeMb} MiB, s3rver on loopback)`,
        budget: FLOOR,
        measured: `${fmt.ratio(object.download / disk.download)} (${mb(object.download)} vs ${mb(disk.download)})`,
        pass: object.download >= FLOOR_BYTES,
      },
      {
        figure: `built server's peak RSS growth during a ${uploadMb} MiB upload (POST /api/files into S3)`,
        budget: `≤ ${MEMORY_BUDGET_MIB} MiB (streamed)`,
        measured: `${server.growth.toFixed(1)} MiB (RSS ${server.started.toFixed(0)} MiB after start, ${server.before.toFixed(0)} MiB after a ${WARM_UP_MB} MiB warm-up upload, peak ${server.peak.toFixed(0)} MiB; ${(uploadMb / server.seconds).toFixed(0)} MiB/s)`,
        pass: server.growth <= MEMORY_BUDGET_MIB,
      },
    ];
  } finally {
    await s3.close();
    await stop(s3rver.child);
    rmSync(work, { recursive: true, force: true });
  }
}
