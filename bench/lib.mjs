// Shared helpers of the benchmarks: ports, processes pinned to a core, wrk, RSS, the built server.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The checkout measured (BENCH_REPO: another built checkout, e.g. to measure a baseline commit). */
export const repo = process.env.BENCH_REPO ?? fileURLToPath(new URL('..', import.meta.url));
/** This folder (the baselines in floor/) and its output folder, whatever checkout is measured. */
export const benchDir = fileURLToPath(new URL('.', import.meta.url));
export const out = join(benchDir, 'out');
export const serverEntry = join(repo, 'apps/server/dist/src/server.js');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Servers on core 0, load generators on core 1 (when the machine has two cores or more). */
export const CORES = availableParallelism() >= 2 ? { server: '0', load: '1' } : { server: null, load: null };

export const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const children = new Set();
export function killAll() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
}
process.on('exit', killAll);

/** Spawns a command, pinned to one core with taskset when `core` is given (taskset execs: same pid). */
export function start(command, args, { core = null, env = {}, stdio = ['ignore', 'ignore', 'inherit'] } = {}) {
  const [cmd, argv] = core === null ? [command, args] : ['taskset', ['-c', core, command, ...args]];
  const child = spawn(cmd, argv, { env: { ...process.env, ...env }, stdio });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers 2xx (bounded); returns ms since `since`. */
export async function waitHealthy(url, since = performance.now(), { everyMs = 5, timeoutMs = 20_000, child } = {}) {
  while (performance.now() - since < timeoutMs) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`exited before healthy: ${url}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await sleep(everyMs);
  }
  throw new Error(`not healthy within ${timeoutMs} ms: ${url}`);
}

const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
/** CPU time (user + system, ms) a process has used so far: steadier than wall time on a shared machine. */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

export const rssKb = (pid) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The medians of several wrk runs of one route: req/s and p99, and every non-2xx/3xx answer counted. */
export const medianRun = (runs) => ({
  rps: median(runs.map((r) => r.rps)),
  p99: median(runs.map((r) => r.p99)),
  bad: runs.reduce((sum, r) => sum + r.bad, 0),
});

/** Settings of the built server in the benchmarks: production, as `npm start` runs it. */
export function serverEnv(port, dataDir, extra = {}) {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123',
    ...extra,
  };
}

/** The built server on a fresh port (data dir created when not given), pinned to the server core. */
export async function startOurs({ dataDir, env = {}, core = CORES.server } = {}) {
  const port = await freePort();
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'bench-data-'));
  const t0 = performance.now();
  // BENCH_SERVER_LOG=1: the server's log lines too (they go to stdout).
  const stdio = process.env.BENCH_SERVER_LOG ? ['ignore', 'inherit', 'inherit'] : undefined;
  const child = start(process.execPath, [serverEntry], { core, env: serverEnv(port, dir, env), stdio });
  const base = `http://127.0.0.1:${port}`;
  const startMs = await waitHealthy(`${base}/api/health`, t0, { child });
  return {
    base,
    port,
    child,
    dataDir: dir,
    startMs,
    async close() {
      await stop(child);
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The baseline: a bare Fastify hello-world (bench/floor/hello.mjs), pinned the same way. */
export async function startHello({ core = CORES.server } = {}) {
  const port = await freePort();
  const t0 = performance.now();
  const child = start(process.execPath, [join(benchDir, 'floor/hello.mjs')], { core, env: { PORT: String(port) } });
  const base = `http://127.0.0.1:${port}`;
  const startMs = await waitHealthy(`${base}/`, t0, { child });
  return { base, child, startMs, close: () => stop(child) };
}

/**
 * `count` registered, confirmed accounts made straight in the server's database (the bench needs no
 * mail) through the built server's own modules: its migrations, its password hashing (same argon2
 * parameters). `databaseUrl` for PostgreSQL, else the embedded database in `dataDir`.
 */
export async function createAccounts({ dataDir, databaseUrl, count = 1, password = 'correct horse battery' }) {
  const dist = (file) => pathToFileURL(join(repo, 'apps/server/dist/src', file)).href;
  const { openDatabase, migrate } = await import(dist('db/database.js'));
  const { hashPassword } = await import(dist('modules/accounts/strategies/password/passwords.js'));
  const db = openDatabase({ dataDir, databaseUrl });
  try {
    await migrate(db);
    const hash = await hashPassword(password);
    const now = Date.now();
    const accounts = [];
    for (let i = 0; i < count; i++) {
      const id = randomBytes(12).toString('hex');
      const email = `bench-${id}@bench.test`;
      await db.kysely
        .insertInto('users')
        .values({
          id,
          email,
          password_hash: hash,
          first_name: 'Bench',
          last_name: 'User',
          language: 'en',
          preferences: '{}',
          confirmed_at: now,
          registered_at: now,
          invited_by: null,
          created_at: now,
        })
        .execute();
      await db.kysely
        .insertInto('profiles')
        .values({
          id: randomBytes(12).toString('hex'),
          user_id: id,
          type: 'PROFESSIONAL',
          first_name: 'Bench',
          last_name: 'User',
          created_at: now,
        })
        .execute();
      accounts.push({ email, password });
    }
    return accounts;
  } finally {
    await db.close();
  }
}

/** A session of `account` through POST /api/auth/login, as the Authorization header. */
export async function loginHeader(base, account) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: account.email, password: account.password }),
  });
  if (res.status !== 200) throw new Error(`bench login: HTTP ${res.status} ${await res.text()}`);
  return { authorization: `Bearer ${(await res.json()).token}` };
}

/** wrk (Debian's package; installed on first use), pinned to the load core unless `core` says otherwise. */
export function ensureTool(bin, pkg = bin) {
  if (spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0) return;
  console.log(`installing ${pkg} (Debian)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  if (spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'ignore', env }).status !== 0)
    throw new Error(`could not install ${pkg}`);
}

const toMs = (value, unit) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);

/** One wrk run: requests/s, p99 latency (ms), non-2xx/3xx count. */
export function wrk(url, { connections = 50, seconds = 5, headers = {}, script, core = CORES.load } = {}) {
  ensureTool('wrk');
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  if (script) args.push('-s', script);
  args.push(url);
  const [cmd, argv] = core === null ? ['wrk', args] : ['taskset', ['-c', core, 'wrk', ...args]];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: (seconds + 30) * 1000 });
  if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr || r.stdout}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1]);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(r.stdout);
  const bad = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(r.stdout)?.[1] ?? 0);
  return { rps, p99: p99 ? toMs(p99[1], p99[2]) : NaN, bad };
}

export const fmt = {
  ratio: (x) => `${x.toFixed(2)}×`,
  kib: (bytes) => `${(bytes / 1024).toFixed(1)} KiB`,
  k: (n) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0)),
  ms: (n) => (n >= 100 ? `${n.toFixed(0)} ms` : `${n.toFixed(2)} ms`),
};

/** The server's argon2 parameters, read from its source (one source of truth), e.g. `memoryCost: 19_456`. */
export function argon2Params() {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.ts')) files.push(join(dir, e.name));
    }
  };
  walk(join(repo, 'apps/server/src'));
  for (const f of files) {
    const m = /memoryCost:\s*([\d_]+),\s*timeCost:\s*(\d+),\s*parallelism:\s*(\d+)/.exec(readFileSync(f, 'utf8'));
    if (m)
      return {
        algorithm: 2,
        memoryCost: Number(m[1].replaceAll('_', '')),
        timeCost: Number(m[2]),
        parallelism: Number(m[3]),
      };
  }
  throw new Error('argon2 parameters not found in apps/server/src');
}

/**
 * Raw argon2id verifications with the server's parameters (floor/argon2-raw.mjs): one process pinned to
 * each core given, all at once, each `concurrency` at a time for `seconds`. Resolves to each process's
 * verifications per second (`rate`) and per CPU-second it used (`perCpuSecond`).
 */
export function rawArgon2({ cores, concurrency = 4, seconds = 4 }) {
  const env = {
    ...process.env,
    ARGON2_PARAMS: JSON.stringify(argon2Params()),
    CONCURRENCY: String(concurrency),
    SECONDS: String(seconds),
  };
  const script = join(benchDir, 'floor/argon2-raw.mjs');
  return Promise.all(
    cores.map(
      (core) =>
        new Promise((resolve, reject) => {
          const child = spawn('taskset', ['-c', core, process.execPath, script], { env });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d) => (stdout += d));
          child.stderr.on('data', (d) => (stderr += d));
          child.on('error', reject);
          child.on('close', (code) =>
            code === 0
              ? resolve(JSON.parse(stdout.trim().split('\n').pop()))
              : reject(new Error(`argon2 baseline failed: ${stderr}`)),
          );
        }),
    ),
  );
}
