// A large shared file downloaded through our server (a real share link, force_download) and through
// nginx (Debian's nginx-light, sendfile) in the same run: throughput ratio ours/nginx and the
// server's peak memory (VmHWM), which should stay far below the file size (the file is streamed).
// BENCH_FILE_MB (default 512) and BENCH_ROUNDS (default 3) tune it. Run by run.mjs (rows of the table).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openAsBlob,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { request as httpGet } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccounts, loginHeader } from './lib.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const MIB = 1024 * 1024;
const sizeMb = Number(process.env.BENCH_FILE_MB ?? 512);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
let work;
const children = [];
function cleanup() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  children.length = 0;
  if (work) rmSync(work, { recursive: true, force: true });
  work = undefined;
}
process.on('exit', cleanup);

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function waitFor(url) {
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`not reachable: ${url}`);
}
const status = (pid, field) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** The test file: random bytes (nothing compresses or dedups them), written in 8 MiB chunks. */
function makeFile(path) {
  const chunk = Buffer.alloc(8 * MIB);
  const hash = createHash('sha256');
  const fd = openSync(path, 'w', 0o644);
  for (let written = 0; written < sizeMb * MIB; written += chunk.length) {
    randomFillSync(chunk);
    hash.update(chunk);
    writeSync(fd, chunk);
  }
  closeSync(fd);
  return hash.digest('hex');
}

/** One download over node:http, bytes counted and dropped; optionally hashed (untimed check). */
function download(url, { hash = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const digest = hash ? createHash('sha256') : null;
    let bytes = 0;
    httpGet(url, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${url}: HTTP ${res.statusCode}`));
      res.on('data', (chunk) => {
        bytes += chunk.length;
        digest?.update(chunk);
      });
      res.on('end', () =>
        resolve({ bytes, seconds: (performance.now() - started) / 1000, sha256: digest?.digest('hex') }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function ensureNginx() {
  if (spawnSync('sh', ['-c', 'command -v nginx || test -x /usr/sbin/nginx']).status === 0) return '/usr/sbin/nginx';
  console.log('installing nginx-light (Debian)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  const r = spawnSync('apt-get', ['install', '-y', '-qq', 'nginx-light'], { stdio: 'ignore', env });
  if (r.status !== 0) throw new Error('could not install nginx-light');
  return '/usr/sbin/nginx';
}

async function startNginx(root) {
  const port = await freePort();
  const dir = join(work, 'nginx');
  mkdirSync(dir);
  const conf = join(dir, 'nginx.conf');
  const temp = (name) => `${name}_temp_path ${join(dir, name)};`;
  const text = `
daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  default_type application/octet-stream;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  server { listen 127.0.0.1:${port}; root ${root}; location / { } }
}`;
  writeFileSync(conf, text);
  const nginx = spawn(ensureNginx(), ['-c', conf, '-p', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(nginx);
  await waitFor(`http://127.0.0.1:${port}/missing`);
  return `http://127.0.0.1:${port}`;
}

async function startServer(dataDir) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(repo, 'apps/server/dist/src/server.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      LOG_LEVEL: 'error',
      RATE_LIMIT_SCALE: '100000',
      MAX_UPLOAD_MB: String(sizeMb + 16),
      SESSION_SECRET: sessionSecret,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(server);
  await waitFor(`${base}/api/health`);
  return { base, pid: server.pid };
}

/** A registered user straight in the embedded database, logged in through the API. */
async function sessionFor(dataDir, base) {
  const [account] = await createAccounts({ dataDir });
  return loginHeader(base, account);
}

async function main() {
  work = mkdtempSync(join(tmpdir(), 'bench-files-'));
  const source = join(work, 'www');
  mkdirSync(source);
  chmodSync(work, 0o755); // nginx workers may run as www-data
  chmodSync(source, 0o755);
  const file = join(source, 'large.bin');
  console.log(`building a ${sizeMb} MiB random file…`);
  const expected = makeFile(file);

  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  const server = await startServer(dataDir);
  const auth = await sessionFor(dataDir, server.base);
  const idleKb = status(server.pid, 'VmRSS');

  // Upload through the API as the web app does (multipart), streamed from disk.
  const form = new FormData();
  form.append('file', await openAsBlob(file, { type: 'application/octet-stream' }), 'large.bin');
  let started = performance.now();
  const up = await fetch(`${server.base}/api/files`, { method: 'POST', headers: auth, body: form });
  if (up.status !== 201) throw new Error(`upload: HTTP ${up.status} ${await up.text()}`);
  const uploadSeconds = (performance.now() - started) / 1000;
  const { _id } = await up.json();
  const share = await (
    await fetch(`${server.base}/api/files/${_id}/shares`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{}',
    })
  ).json();
  const ours = `${server.base}/api/file/${_id}/download_link?share_key=${share.share_key}&force_download=true`;
  const nginx = `${await startNginx(source)}/large.bin`;

  // Untimed check that both serve exactly the file, then warm caches.
  for (const [name, url] of [
    ['ours', ours],
    ['nginx', nginx],
  ]) {
    const r = await download(url, { hash: true });
    if (r.sha256 !== expected) throw new Error(`${name}: served bytes differ from the file`);
  }
  const speeds = { ours: [], nginx: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, url] of [
      ['ours', ours],
      ['nginx', nginx],
    ]) {
      const r = await download(url);
      if (r.bytes !== sizeMb * MIB) throw new Error(`${name}: short download (${r.bytes} bytes)`);
      speeds[name].push(r.bytes / MIB / r.seconds);
      console.log(`  round ${round + 1} ${name.padEnd(5)} ${(r.bytes / MIB / r.seconds).toFixed(0)} MiB/s`);
    }
  }
  // Medians: the machine is shared, one disturbed round should not decide the ratio.
  const mibps = (name) => speeds[name].sort((a, b) => a - b)[Math.floor(speeds[name].length / 2)];
  const peakKb = status(server.pid, 'VmHWM');
  console.log(`upload through the API: ${(sizeMb / uploadSeconds).toFixed(0)} MiB/s`);
  const ratio = mibps('ours') / mibps('nginx');
  const peakMb = peakKb / 1024;
  return [
    {
      figure: `shared-file download (${sizeMb} MiB, share link) vs nginx sendfile`,
      budget: '≥ 0.5× nginx, RSS growth ≤ 64 MiB (streamed)',
      measured: `${ratio.toFixed(2)}× (${mibps('ours').toFixed(0)} vs ${mibps('nginx').toFixed(0)} MiB/s, median of ${rounds}), peak RSS ${peakMb.toFixed(0)} MiB (${(idleKb / 1024).toFixed(0)} after start)`,
      pass: ratio >= 0.5 && peakMb - idleKb / 1024 <= 64,
    },
  ];
}

const sessionSecret = randomBytes(32).toString('hex');

export default async function fileDownloadRows() {
  try {
    return await main();
  } finally {
    cleanup();
  }
}
