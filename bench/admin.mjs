// The domain administrator's console at the size of a 5,000-person company: the People page's first
// page and a search (budget: under 200 ms of server time, on SQLite and on PostgreSQL), and the audit
// trail's CSV export of 100,000 events in constant memory (budget: the server's RSS grows by less than
// 64 MB while it streams, and every event arrives). Server time is read as the loopback round trip of one
// request on an otherwise idle server (the median of 15): an upper bound of the server's own time.
// The built server runs as in production; the rows are written straight into its database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { tsImport } from 'tsx/esm/api';
import { createAccounts, fmt, loginHeader, median, repo, rssKb, startOurs } from './lib.mjs';

const PEOPLE = 5_000;
const EVENTS = 100_000;
const DOMAIN = 'bench.test';
const ROUNDS = 15;
const PAGE_BUDGET_MS = 200;
const RSS_BUDGET_MB = 64;

const dist = (file) => pathToFileURL(join(repo, 'apps/server/dist/src', file)).href;
const suiteModule = (path) => tsImport(pathToFileURL(join(repo, 'apps/server', path)).href, import.meta.url);

/** 5,000 people of the domain (a few with sessions), the admin grant, and 100,000 audit events. */
async function seed({ dataDir, databaseUrl, adminEmail }) {
  const { openDatabase, migrate } = await import(dist('db/database.js'));
  const db = openDatabase({ dataDir, databaseUrl });
  try {
    await migrate(db);
    const now = Date.now();
    for (let start = 0; start < PEOPLE; start += 500) {
      const rows = [];
      for (let i = start; i < Math.min(PEOPLE, start + 500); i++) {
        rows.push({
          id: `p${String(i).padStart(6, '0')}${randomBytes(4).toString('hex')}`,
          email: `person${i}@${DOMAIN}`,
          domain: DOMAIN,
          password_hash: null,
          first_name: `First${i}`,
          last_name: `Last${i}`,
          language: 'en',
          preferences: '{}',
          confirmed_at: now,
          registered_at: now,
          invited_by: null,
          created_at: now - i,
        });
      }
      await db.kysely.insertInto('users').values(rows).execute();
    }
    const admin = await db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', adminEmail)
      .executeTakeFirstOrThrow();
    await db.kysely.updateTable('users').set({ domain: DOMAIN }).where('id', '=', admin.id).execute();
    await db.kysely
      .insertInto('domain_admins')
      .values({
        domain: DOMAIN,
        user_id: admin.id,
        via: 'operator',
        granted_by: null,
        created_at: now,
        checked_at: null,
        record_missing_since: null,
      })
      .execute();
    for (let start = 0; start < EVENTS; start += 1000) {
      const rows = [];
      for (let i = start; i < start + 1000; i++) {
        const at = now - i * 1000;
        rows.push({
          id: `${at.toString(36).padStart(10, '0')}${String(i).padStart(8, '0')}`,
          domain: DOMAIN,
          at,
          kind: i % 3 === 0 ? 'sign_in_failed' : 'sign_in',
          action: 'password',
          actor_id: null,
          actor_email: null,
          target_id: null,
          target_email: `person${i % PEOPLE}@${DOMAIN}`,
          reason: i % 3 === 0 ? 'ERR_INVALID_CREDENTIALS' : null,
          ip: '192.0.2.1',
          details: '{}',
        });
      }
      await db.kysely.insertInto('audit_events').values(rows).execute();
    }
  } finally {
    await db.close();
  }
}

async function timed(url, headers) {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.json();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`bench admin: ${url} HTTP ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

async function measure(label, databaseUrl) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-admin-'));
  try {
    const [account] = await createAccounts({ dataDir, databaseUrl });
    await seed({ dataDir, databaseUrl, adminEmail: account.email });
    const ours = await startOurs({
      dataDir,
      env: { RATE_LIMIT_SCALE: '1000000', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    });
    try {
      const auth = await loginHeader(ours.base, account);
      const people = `${ours.base}/api/admin/domains/${DOMAIN}/people`;
      const first = [];
      const search = [];
      for (let i = 0; i < 3; i++) await timed(people, auth); // JIT, page cache
      for (let i = 0; i < ROUNDS; i++) {
        const page = await timed(people, auth);
        if (page.body.people.length !== 50) throw new Error('bench admin: first page is not 50 people');
        first.push(page.ms);
        const found = await timed(`${people}?q=${encodeURIComponent(`last${4000 + i}`)}`, auth);
        if (found.body.people.length < 1) throw new Error('bench admin: search found nobody');
        search.push(found.ms);
      }
      const rows = [
        {
          figure: `People page, ${PEOPLE} people, ${label}: first page / search by name`,
          budget: `< ${PAGE_BUDGET_MS} ms each`,
          measured: `${fmt.ms(median(first))} / ${fmt.ms(median(search))}`,
          note: `median of ${ROUNDS} loopback round trips (upper bound of server time)`,
          pass: median(first) < PAGE_BUDGET_MS && median(search) < PAGE_BUDGET_MS,
        },
      ];
      if (!databaseUrl) {
        // The export: RSS sampled while the client reads the stream.
        const before = rssKb(ours.child.pid);
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, rssKb(ours.child.pid))), 20);
        const t0 = performance.now();
        const res = await fetch(`${ours.base}/api/admin/domains/${DOMAIN}/audit/export`, { headers: auth });
        let lines = 0;
        const decoder = new TextDecoder();
        for await (const chunk of res.body)
          lines += (decoder.decode(chunk, { stream: true }).match(/\r\n/g) ?? []).length;
        clearInterval(sampler);
        const seconds = (performance.now() - t0) / 1000;
        const growthMb = (peak - before) / 1024;
        rows.push({
          figure: `Audit CSV export of ${EVENTS.toLocaleString('en')} events, ${label}: server RSS growth while streaming`,
          budget: `< ${RSS_BUDGET_MB} MB, every event exported`,
          measured: `${growthMb.toFixed(1)} MB (${(before / 1024).toFixed(0)} → ${(peak / 1024).toFixed(0)} MB), ${lines - 1} rows in ${seconds.toFixed(1)} s`,
          note: '1,000-row keyset batches pulled as the socket drains',
          // The admin's own sign-in is one more event of the domain.
          pass: growthMb < RSS_BUDGET_MB && lines - 1 >= EVENTS,
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

export default async function adminRows() {
  const rows = await measure('SQLite');
  const { startPgCluster } = await suiteModule('test/pg-cluster.ts');
  const pg = await startPgCluster();
  try {
    rows.push(...(await measure('PostgreSQL', pg.url)));
  } finally {
    pg.destroy();
  }
  return rows;
}
