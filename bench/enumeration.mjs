// Account enumeration by timing: login and password recovery must take as long for an address that has
// no account as for one that has (the dummy argon2 verification, recovery's fixed answer time). Measured
// here, not in the test suite: a time ratio is a property of a quiet machine, and the suite runs on a
// loaded one. The built server on one core (SQLite), one registered account, requests one at a time.
// Each sample is a pair (known, unknown) measured back to back in ABBA order, so that load from outside
// hits both halves of a pair alike; a login sample is 3 requests (argon2 is ~60 ms of CPU), a recovery
// sample 1 (it answers at its 200 ms floor). Budget: the median of the paired ratios within 20 % of 1
// (a real difference shifts every pair; a burst of load only a few); the plain medians are reported.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccounts, fmt, median, startOurs } from './lib.mjs';

/** Pairs per figure: enough that a few disturbed by outside load do not move the median. */
const SAMPLES = 60;

async function post(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

async function pairedRatio(send, knownAddress, perSample) {
  const timed = async (address) => {
    const t0 = performance.now();
    for (let j = 0; j < perSample; j++) await send(address(j));
    return performance.now() - t0;
  };
  await send(knownAddress); // warm-up: JIT, SQLite page cache
  await send('warm-up-nobody@bench.test');
  const known = [];
  const unknown = [];
  for (let i = 0; i < SAMPLES; i++) {
    const knownFirst = i % 4 === 0 || i % 4 === 3;
    for (const kind of knownFirst ? ['known', 'unknown'] : ['unknown', 'known']) {
      if (kind === 'known') known.push(await timed(() => knownAddress));
      else unknown.push(await timed((j) => `nobody-${i}-${j}@bench.test`));
    }
  }
  return { ratio: median(known.map((k, i) => k / unknown[i])), known: median(known), unknown: median(unknown) };
}

export default async function enumerationRows() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  try {
    const [account] = await createAccounts({ dataDir });
    // The rate limits are lifted: the load is one client, not an attack.
    const ours = await startOurs({ dataDir, env: { RATE_LIMIT_SCALE: '1000000' } });
    try {
      const login = (address) => post(`${ours.base}/api/auth/login`, { login: address, password: 'Wrong-Password-9' });
      const forgot = (address) => post(`${ours.base}/api/v2/user/forgot-password`, { email: address });
      const statuses = [await login(account.email), await login('nobody@bench.test')];
      if (statuses.some((s) => s !== 401)) throw new Error(`bench login: HTTP ${statuses.join(', ')}, expected 401`);
      const rows = [];
      for (const [name, send, perSample] of [
        ['login (wrong password)', login, 3],
        ['password recovery', forgot, 1],
      ]) {
        const r = await pairedRatio(send, account.email, perSample);
        rows.push({
          figure: `${name}: answer time, registered address vs no account (${SAMPLES} pairs, ABBA)`,
          budget: '0.8–1.25× (median paired ratio)',
          measured: `${fmt.ratio(r.ratio)} (medians ${fmt.ms(r.known)} vs ${fmt.ms(r.unknown)} per sample of ${perSample})`,
          pass: r.ratio > 0.8 && r.ratio < 1.25,
        });
      }
      return rows;
    } finally {
      await ours.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
