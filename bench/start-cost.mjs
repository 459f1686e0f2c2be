// What each part of the server costs at start: cold start to healthy and idle RSS of the built server
// against the bare Fastify hello-world (medians, in turn), then, each in a fresh node, the time and RSS
// that importing one package or bundle chunk adds to an empty process. `node bench/start-cost.mjs
// [runs]` after `npm run build`; the table of docs/architecture.md ("A lean start") comes from it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { CORES, cpuMs, median, repo, rssKb, sleep, startHello, startOurs } from './lib.mjs';

const runs = Number(process.argv[2] ?? 5);

async function startAndRss() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const first = await startOurs({ dataDir });
  await first.close();
  const figures = { hello: { ms: [], rss: [], cpu: [] }, ours: { ms: [], rss: [], cpu: [] } };
  for (let i = 0; i < runs; i++) {
    for (const [name, begin, path] of [
      ['hello', () => startHello(), '/'],
      ['ours', () => startOurs({ dataDir }), '/api/health'],
    ]) {
      const server = await begin();
      figures[name].cpu.push(cpuMs(server.child.pid));
      await fetch(`${server.base}${path}`).then((r) => r.arrayBuffer());
      await sleep(1000);
      figures[name].ms.push(server.startMs);
      figures[name].rss.push(rssKb(server.child.pid));
      await server.close();
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  const m = (xs) => median(xs);
  console.log(
    `start ${m(figures.ours.ms).toFixed(0)} vs ${m(figures.hello.ms).toFixed(0)} ms = ${(m(figures.ours.ms) / m(figures.hello.ms)).toFixed(2)}×; ` +
      `CPU to healthy ${m(figures.ours.cpu).toFixed(0)} vs ${m(figures.hello.cpu).toFixed(0)} ms = ${(m(figures.ours.cpu) / m(figures.hello.cpu)).toFixed(2)}×; ` +
      `RSS ${(m(figures.ours.rss) / 1024).toFixed(1)} vs ${(m(figures.hello.rss) / 1024).toFixed(1)} MiB = ${(m(figures.ours.rss) / m(figures.hello.rss)).toFixed(2)}× (medians of ${runs})`,
  );
}

/** ms and KiB of RSS that importing `specifier` adds to an empty node (medians of `runs` processes). */
function importCost(specifier) {
  const script = `const t0 = performance.now(); const r0 = process.memoryUsage().rss;
    await import(${JSON.stringify(specifier)});
    globalThis.gc?.(); console.log(JSON.stringify({ ms: performance.now() - t0, kb: (process.memoryUsage().rss - r0) / 1024 }));`;
  const ms = [];
  const kb = [];
  for (let i = 0; i < runs; i++) {
    const args = ['--expose-gc', '--input-type=module', '-e', script];
    const cmd =
      CORES.server === null ? [process.execPath, args] : ['taskset', ['-c', CORES.server, process.execPath, ...args]];
    const r = spawnSync(cmd[0], cmd[1], { cwd: join(repo, 'apps/server'), encoding: 'utf8' });
    if (r.status !== 0)
      return `error: ${r.stderr.split('\n').find((l) => l.includes('Error')) ?? r.stderr.slice(0, 200)}`;
    const row = JSON.parse(r.stdout.trim().split('\n').pop());
    ms.push(row.ms);
    kb.push(row.kb);
  }
  return `${median(ms).toFixed(0)} ms, ${(median(kb) / 1024).toFixed(1)} MiB`;
}

await startAndRss();
const require = createRequire(join(repo, 'apps/server/package.json'));
const resolve = (name) => {
  try {
    return new URL(`file://${require.resolve(name)}`).href;
  } catch {
    return name;
  }
};
const parts = (process.env.PARTS ?? '').split(',').filter(Boolean);
const packages = parts.length
  ? parts
  : [
      'fastify',
      'zod',
      'kysely',
      'better-sqlite3',
      'pg',
      'ioredis',
      '@aws-sdk/client-s3',
      'nodemailer',
      'openid-client',
      '@node-saml/node-saml',
      'xml-crypto',
      '@xmldom/xmldom',
      '@simplewebauthn/server',
      'otpauth',
      'jose',
      '@node-rs/argon2',
      '@react-email/render',
      'prom-client',
      '@fastify/multipart',
      'email-providers',
    ];
for (const name of packages) console.log(`${name.padEnd(28)} ${importCost(resolve(name))}`);
