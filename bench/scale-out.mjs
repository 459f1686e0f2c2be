// Scale-out: login throughput of two built instances against one, behind the scale-out suite's nginx
// (apps/server/test-scale/cluster.ts: the configuration docs/deploy.md describes) on a throwaway
// PostgreSQL (apps/server/test/pg-cluster.ts). Each instance is pinned to its own core with taskset;
// the same load in both runs: wrk through nginx, BENCH_LOGIN_CONNECTIONS (default 16) concurrent
// logins cycling over as many pre-created accounts, BENCH_LOGIN_SECONDS (default 10) per run. Logins
// are argon2id-bound, so two cores should give close to twice the logins per second (goal ≥ 1.8×).
// nginx, wrk and PostgreSQL are not pinned: they share the two cores with the instances, in both runs.
// Each instance's share of its core and the logins per CPU-second it got are reported too: on a shared
// machine a busy second core caps the ratio while the cost of a login stays the same.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { createAccounts, fmt, out, repo, serverEnv, wrk } from './lib.mjs';

const connections = Number(process.env.BENCH_LOGIN_CONNECTIONS ?? 16);
const seconds = Number(process.env.BENCH_LOGIN_SECONDS ?? 10);
const GOAL = 1.8;

/** The scale-out suite's own modules (TypeScript, loaded through tsx): no second copy of them here. */
const suiteModule = (path) => tsImport(pathToFileURL(join(repo, 'apps/server', path)).href, import.meta.url);

/** CPU seconds a process has used (user + system; /proc/<pid>/stat fields 14 and 15, in clock ticks of 1/100 s). */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** A wrk script: each request logs in the next account (JSON bodies built once). */
function loginScript(accounts) {
  const bodies = accounts.map((a) => `'${JSON.stringify({ login: a.email, password: a.password })}'`);
  const script = join(out, 'scale-out-login.lua');
  writeFileSync(
    script,
    `local bodies = { ${bodies.join(', ')} }
local i = 0
local headers = { ["Content-Type"] = "application/json" }
request = function()
  i = i + 1
  return wrk.format("POST", "/api/auth/login", headers, bodies[(i % #bodies) + 1])
end
`,
  );
  return script;
}

export default async function run() {
  if (availableParallelism() < 2) throw new Error('needs two cores (one per instance)');
  const { Instance, startNginx } = await suiteModule('test-scale/cluster.ts');
  const { startPgCluster } = await suiteModule('test/pg-cluster.ts');
  const { freePort } = await suiteModule('test/smtp.ts');
  const work = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const pg = await startPgCluster();
  const instances = [];
  const proxies = [];
  try {
    const accounts = await createAccounts({ dataDir: work, databaseUrl: pg.url, count: connections });
    const script = loginScript(accounts);
    const ports = [await freePort(), await freePort()];
    for (const [i, port] of ports.entries()) {
      const env = serverEnv(port, join(work, `data-${i}`), {
        DATABASE_URL: pg.url,
        TRUST_PROXY: '1',
        LOG_LEVEL: 'warn',
        // Every login comes from nginx's address: the limits would measure themselves, not the hashing.
        RATE_LIMIT_SCALE: '1000000',
      });
      const instance = new Instance(`instance ${i}`, port, env, { core: i });
      await instance.start();
      instances.push(instance);
    }
    const measure = async (upstreams) => {
      const nginx = await startNginx(join(work, `nginx-${upstreams.length}`), upstreams);
      proxies.push(nginx);
      // A short warm-up (JIT, connection pools), then the measured run.
      wrk(`${nginx.url}/api/auth/login`, { connections, seconds: 2, script, core: null });
      const pids = instances.slice(0, upstreams.length).map((i) => i.child.pid);
      const before = pids.map(cpuSeconds);
      const t0 = performance.now();
      const r = wrk(`${nginx.url}/api/auth/login`, { connections, seconds, script, core: null });
      const elapsed = (performance.now() - t0) / 1000;
      // How much of its core each instance got: the machine is shared, a busy second core shows here.
      const used = pids.map((pid, i) => cpuSeconds(pid) - before[i]);
      const busy = used.map((s) => `${((s / elapsed) * 100).toFixed(0)}%`);
      // Logins per CPU-second the instances got: equal in both runs when logins are hashing-bound.
      const perCpuSecond = (r.rps * elapsed) / used.reduce((a, b) => a + b, 0);
      await nginx.stop();
      return { ...r, busy, perCpuSecond };
    };
    const one = await measure(ports.slice(0, 1));
    const two = await measure(ports);
    const ratio = two.rps / one.rps;
    const bad = one.bad + two.bad;
    return [
      {
        figure: `login throughput, two instances vs one (each pinned to its own core, behind nginx, PostgreSQL; ${connections} concurrent logins of ${connections} accounts)`,
        budget: `≥ ${GOAL}×`,
        measured: `${fmt.ratio(ratio)} (${two.rps.toFixed(1)} vs ${one.rps.toFixed(1)} logins/s, p99 ${fmt.ms(two.p99)} vs ${fmt.ms(one.p99)}; instances' CPU ${two.busy.join(' + ')} vs ${one.busy.join('')} of a core, ${two.perCpuSecond.toFixed(0)} vs ${one.perCpuSecond.toFixed(0)} logins per instance CPU-second)${bad ? `, ${bad} non-2xx` : ''}`,
        pass: ratio >= GOAL && bad === 0,
      },
    ];
  } finally {
    for (const proxy of proxies) await proxy.stop();
    for (const instance of instances) await instance.stop('SIGKILL');
    pg.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}
