// Shared-file storage: upload and download throughput of the S3 backend (an s3rver on loopback, in its
// own process) against the disk backend, same file, same run, through the built storage modules the
// server uses; plus this process's memory growth during the S3 upload (the multipart upload streams:
// it should stay near two 8 MiB parts whatever the file size). BENCH_S3_MB (default 256) tunes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { fmt, freePort, repo, start, stop, waitHealthy } from './lib.mjs';

const MIB = 1024 * 1024;
const sizeMb = Number(process.env.BENCH_S3_MB ?? 256);
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
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 20);
    const object = await measure(s3);
    clearInterval(sampler);
    const mb = (bytesPerSecond) => `${(bytesPerSecond / MIB).toFixed(0)} MiB/s`;
    const growth = (rssPeak - rssBefore) / MIB;
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
        figure: `server memory growth during a ${sizeMb} MiB S3 upload`,
        budget: '≤ 64 MiB (streamed)',
        measured: `${growth.toFixed(1)} MiB`,
        pass: growth <= 64,
      },
    ];
  } finally {
    await s3.close();
    await stop(s3rver.child);
    rmSync(work, { recursive: true, force: true });
  }
}
