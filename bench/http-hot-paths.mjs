#!/usr/bin/env node
// Hot paths of the API against the cheapest route (GET /api/health) as baseline, all in one run on the
// built server: throughput ratios, and the health route's latency while logins (argon2id) run in
// parallel — it stays close to idle when hashing is kept off the event loop.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const port = await new Promise((r) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => r(p));
  });
});
const dataDir = mkdtempSync(join(tmpdir(), 'bench-hot-'));
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [join(repo, 'apps/server/dist/src/server.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    LOG_LEVEL: 'error',
    RATE_LIMIT_SCALE: '100000',
    NODE_ENV: 'production',
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', stop);

for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Bounded load: `total` requests, `concurrency` at a time. Returns requests/s and latencies. */
async function load(make, total = 2000, concurrency = 16) {
  const latencies = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const s = performance.now();
        const res = await make();
        await res.arrayBuffer();
        latencies.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: total / seconds, p50: latencies[Math.floor(total * 0.5)], p95: latencies[Math.floor(total * 0.95)] };
}

const health = () => fetch(`${base}/api/health`);
await load(health, 1000); // warm-up (JIT, connection pool) before anything is measured
const baseline = await load(health);
const routes = {
  'GET /api/config': () => fetch(`${base}/api/config`),
  'GET / (index.html)': () => fetch(`${base}/user/login`),
  'POST /api/auth/login (unknown user, argon2id)': () =>
    fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'nobody@acme.com', password: 'wrong-password' }),
    }),
};
console.log(`baseline GET /api/health: ${baseline.rps.toFixed(0)} req/s, p95 ${baseline.p95.toFixed(1)} ms`);
for (const [name, make] of Object.entries(routes)) {
  const total = name.includes('argon2') ? 200 : 2000;
  const r = await load(make, total, name.includes('argon2') ? 4 : 16);
  console.log(
    `${name}: ${r.rps.toFixed(0)} req/s = ${(r.rps / baseline.rps).toFixed(3)} × baseline, p95 ${r.p95.toFixed(1)} ms`,
  );
}
const [underLoad] = await Promise.all([
  load(health, 1000, 4),
  load(routes['POST /api/auth/login (unknown user, argon2id)'], 200, 4),
]);
console.log(
  `health p95 while logins hash: ${underLoad.p95.toFixed(1)} ms = ${(underLoad.p95 / baseline.p95).toFixed(2)} × idle p95 (near 1 means hashing does not block the event loop)`,
);
stop();
process.exit(0);
