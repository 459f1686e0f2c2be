// Server figures against a bare Fastify hello-world started in the same run, both pinned to one core
// (wrk on the other): light routes' throughput and p99, login throughput against raw argon2id with the
// server's parameters, cold start to healthy and idle RSS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  argon2Params,
  createAccounts,
  loginHeader,
  CORES,
  cpuMs,
  fmt,
  median,
  medianRun,
  out,
  rawArgon2,
  rssKb,
  sleep,
  startHello,
  startOurs,
  wrk,
} from './lib.mjs';

const BROWSER_HEADERS = {
  'accept-encoding': 'gzip, deflate, br',
  accept: 'text/html,application/json;q=0.9,*/*;q=0.8',
};

/**
 * Each route against the hello-world, both servers up at once on the same core and measured in turn
 * (hello, ours, hello, ours, …): a machine that slows down for a while slows both, not one.
 */
async function lightRoutes() {
  const rounds = 3;
  const rows = [];
  const hello = await startHello();
  const ours = await startOurs();
  // The prerendered entry screen sends some 5 KB (br) where the hello-world sends 17 bytes: its own budget.
  const budgets = { '/api/health': 0.5, '/api/config': 0.5, '/user/login': 0.45 };
  const paths = Object.keys(budgets);
  try {
    // Warm-up (JIT) of both.
    wrk(`${hello.base}/`, { seconds: 2, headers: BROWSER_HEADERS });
    for (const path of paths) wrk(`${ours.base}${path}`, { seconds: 2, headers: BROWSER_HEADERS });
    for (const path of paths) {
      const runs = { hello: [], ours: [] };
      for (let i = 0; i < rounds; i++) {
        runs.hello.push(wrk(`${hello.base}/`, { seconds: 3, headers: BROWSER_HEADERS }));
        runs.ours.push(wrk(`${ours.base}${path}`, { seconds: 3, headers: BROWSER_HEADERS }));
      }
      const base = medianRun(runs.hello);
      const r = medianRun(runs.ours);
      const ratio = r.rps / base.rps;
      const p99 = r.p99 / base.p99;
      rows.push({
        figure: `GET ${path} vs Fastify hello-world (wrk -c50, 1 core, in turn)`,
        budget: `≥ ${budgets[path]}× req/s, p99 ≤ 3×`,
        measured: `${fmt.ratio(ratio)} (${fmt.k(r.rps)} vs ${fmt.k(base.rps)} req/s), p99 ${fmt.ratio(p99)} (${fmt.ms(r.p99)} vs ${fmt.ms(base.p99)}), medians of ${rounds}${r.bad ? `, ${r.bad} non-2xx` : ''}`,
        pass: ratio >= budgets[path] && p99 <= 3 && r.bad === 0,
      });
    }
  } finally {
    await hello.close();
    await ours.close();
  }
  return rows;
}

/**
 * Login throughput against raw argon2id verifications with the same parameters, the same number at a
 * time, on the same core: measured in turn (raw, ours, raw, ours, …; medians), each after a warm-up.
 */
async function login() {
  const params = argon2Params();
  const concurrency = 4;
  const seconds = 4;
  const rounds = 3;
  const rawRun = async () => (await rawArgon2({ cores: [CORES.server ?? '0'], concurrency, seconds }))[0].rate;

  // A registered user straight in the embedded database (the server's own hashing), checked by one login.
  const ours = await startOurs({ env: { RATE_LIMIT_SCALE: '1000000' } });
  const runs = { raw: [], ours: [] };
  let bad = 0;
  try {
    const [account] = await createAccounts({ dataDir: ours.dataDir });
    await loginHeader(ours.base, account);
    const script = join(out, 'login.lua');
    writeFileSync(
      script,
      `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '${JSON.stringify({ login: account.email, password: account.password })}'\n`,
    );
    const url = `${ours.base}/api/auth/login`;
    wrk(url, { connections: concurrency, seconds: 2, script }); // warm-up (JIT), as the raw run's own
    for (let i = 0; i < rounds; i++) {
      runs.raw.push(await rawRun());
      const r = wrk(url, { connections: concurrency, seconds, script });
      runs.ours.push(r.rps);
      bad += r.bad;
    }
  } finally {
    await ours.close();
  }
  const rawRate = median(runs.raw);
  const rate = median(runs.ours);
  const ratio = rate / rawRate;
  return [
    {
      figure: `login throughput vs raw argon2id (m=${params.memoryCost}, t=${params.timeCost}, p=${params.parallelism}; 1 core, ${concurrency} at a time, in turn)`,
      budget: '≥ 0.9×',
      measured: `${fmt.ratio(ratio)} (${rate.toFixed(1)} vs ${rawRate.toFixed(1)} /s, medians of ${rounds})${bad ? `, ${bad} non-2xx` : ''}`,
      pass: ratio >= 0.9 && bad === 0,
    },
  ];
}

async function startAndMemory() {
  const runs = 5;
  const times = { ours: [], hello: [] };
  const cpu = { ours: [], hello: [] };
  const rss = { ours: [], hello: [] };
  // One data dir for every start of ours: migrations and the session secret are done by the first
  // (untimed) start, as on every start of an installed server after its first.
  const first = await startOurs();
  await first.close().catch(() => {});
  const dataDir = first.dataDir;
  for (let i = 0; i < runs; i++) {
    const hello = await startHello();
    cpu.hello.push(cpuMs(hello.child.pid));
    await fetch(`${hello.base}/`).then((r) => r.arrayBuffer());
    await sleep(1000);
    times.hello.push(hello.startMs);
    rss.hello.push(rssKb(hello.child.pid));
    await hello.close();
    const ours = await startOurs({ dataDir });
    cpu.ours.push(cpuMs(ours.child.pid));
    await fetch(`${ours.base}/api/health`).then((r) => r.arrayBuffer());
    await sleep(1000);
    times.ours.push(ours.startMs);
    rss.ours.push(rssKb(ours.child.pid));
    await ours.close();
  }
  spawnSync('rm', ['-rf', dataDir]);
  const start = median(times.ours) / median(times.hello);
  const mem = median(rss.ours) / median(rss.hello);
  return [
    {
      figure: 'cold start to healthy (plain node) vs hello-world',
      budget: '≤ 1.5×',
      measured: `${fmt.ratio(start)} (${fmt.ms(median(times.ours))} vs ${fmt.ms(median(times.hello))}, median of ${runs}; CPU time to healthy ${fmt.ratio(median(cpu.ours) / median(cpu.hello))}, ${fmt.ms(median(cpu.ours))} vs ${fmt.ms(median(cpu.hello))})`,
      pass: start <= 1.5,
    },
    {
      figure: 'idle RSS of the built server vs hello-world',
      budget: '≤ 1.35×',
      measured: `${fmt.ratio(mem)} (${(median(rss.ours) / 1024).toFixed(0)} vs ${(median(rss.hello) / 1024).toFixed(0)} MiB)`,
      pass: mem <= 1.35,
    },
  ];
}

export default async function serverRows() {
  const rows = [];
  for (const part of [lightRoutes, login, startAndMemory]) {
    try {
      rows.push(...(await part()));
    } catch (error) {
      console.error(error);
      rows.push({
        figure: `server: ${part.name}`,
        budget: 'runs',
        measured: `error: ${error?.message ?? error}`,
        pass: false,
      });
    }
  }
  return rows;
}
