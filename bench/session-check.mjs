// The per-request session check ("checked on every authenticated request, cheaply; measure
// it"): an authenticated GET /api/v2/user/me — JWT verification, the indexed sessions ⋈ users lookup
// (which also reads what /me reports of the account), then its profiles — against the same server's
// GET /api/config (no session, no database), both pinned to one core (wrk on the other), SQLite.
// Budget: ≥ 0.1× /config's req/s, p99 ≤ 5×. /config answers from memory; /me makes two indexed reads
// and checks a JWT. The budget catches a gross regression of the check (a scan of the sessions table,
// a lookup per route plugin), not a small one: on the shared 2-core machine the figure moves by a
// third from run to run. The two routes are measured in turn, three times each, so that load from
// outside the benchmark weighs on both alike; hello-world is printed for scale.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccounts, fmt, loginHeader, medianRun, startHello, startOurs, wrk } from './lib.mjs';

/** wrk's settings for every run here: the light routes' (bench/server.mjs). */
const RUN = { connections: 50, seconds: 3 };
/** /config and /me are measured in alternation, this many times each: load from outside hits both alike. */
const ROUNDS = 3;

const warm = (url, headers = {}) => wrk(url, { ...RUN, seconds: 2, headers }); // JIT, SQLite page cache

export default async function sessionCheckRows() {
  const hello = await startHello();
  warm(`${hello.base}/`);
  const base = medianRun(Array.from({ length: ROUNDS }, () => wrk(`${hello.base}/`, RUN)));
  await hello.close();

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  try {
    // One registered account made with the server's own migrations and hashing; its session from a
    // real login. The rate limits are lifted: the load is one client, not an attack.
    const [account] = await createAccounts({ dataDir });
    const ours = await startOurs({ dataDir, env: { RATE_LIMIT_SCALE: '1000000' } });
    try {
      const auth = await loginHeader(ours.base, account);
      const check = await fetch(`${ours.base}/api/v2/user/me`, { headers: auth });
      if (check.status !== 200) throw new Error(`bench /me: HTTP ${check.status} ${await check.text()}`);
      warm(`${ours.base}/api/config`);
      warm(`${ours.base}/api/v2/user/me`, auth);
      const runs = { config: [], me: [] };
      for (let i = 0; i < ROUNDS; i++) {
        runs.config.push(wrk(`${ours.base}/api/config`, RUN));
        runs.me.push(wrk(`${ours.base}/api/v2/user/me`, { ...RUN, headers: auth }));
      }
      const config = medianRun(runs.config);
      const me = medianRun(runs.me);
      const vsConfig = me.rps / config.rps;
      const p99VsConfig = me.p99 / config.p99;
      const bad = me.bad ? `, ${me.bad} non-2xx` : '';
      return [
        {
          figure:
            'GET /api/v2/user/me with a session vs GET /api/config, same server, measured in turn (wrk -c50, 1 core)',
          budget: '≥ 0.1× req/s, p99 ≤ 5×',
          measured: `${fmt.ratio(vsConfig)} (${fmt.k(me.rps)} vs ${fmt.k(config.rps)} req/s), p99 ${fmt.ratio(p99VsConfig)} (${fmt.ms(me.p99)} vs ${fmt.ms(config.p99)}); hello-world ${fmt.k(base.rps)} req/s${bad}`,
          note: 'medians of 3; /me is the JWT check, the sessions ⋈ users lookup, then the profiles, where /config reads nothing',
          pass: vsConfig >= 0.1 && p99VsConfig <= 5 && me.bad === 0,
        },
      ];
    } finally {
      await ours.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
