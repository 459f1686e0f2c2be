/**
 * The session purge: ended and expired session rows are deleted, in batches, by a job that
 * runs with the server's lifecycle (src/jobs/purge.ts), and several instances may run it at once. Real
 * server and database (SQLite; PostgreSQL with scripts/with-pg.sh), sessions made by real logins.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API } from '@suite/contract';
import { buildApp } from '../src/app.js';
import { openDatabase } from '../src/db/database.js';
import { accountsAdmin } from '../src/modules/accounts/index.js';
import { PASSWORD, call, registered, useWorld } from './accounts-helpers.js';

const w = useWorld();

const db = () => w.app.db.kysely;
const login = async (email: string) => {
  const res = await call(w.app, { method: 'POST', url: API.login, body: { login: email, password: PASSWORD } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
};
const me = (token: string) => call(w.app, { method: 'GET', url: API.me, token });
const rowsOf = async (userId: string) =>
  (await db().selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;

/**
 * A registered user whose only session row is the active one: the registration ends the code step's
 * session, and that ended row is purged first so each test counts only what it makes.
 */
async function signedUp(email: string) {
  const user = await registered(w, email);
  await accountsAdmin(db()).purgeEndedSessions();
  expect(await rowsOf(user.id)).toBe(1);
  return user;
}

/** `count` ended rows (half signed out, half expired) of `userId`, written as the server writes rows. */
async function endedRows(userId: string, count: number): Promise<void> {
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomBytes(12).toString('hex'),
    sid_hash: randomBytes(32).toString('hex'),
    user_id: userId,
    kind: 'session',
    user_agent: 'Firefox/130',
    created_at: now - 86_400_000,
    last_seen_at: now - 3_600_000,
    expires_at: i % 2 ? now - 1000 : now + 3_600_000,
    revoked_at: i % 2 ? null : now - 1000,
  }));
  for (let i = 0; i < rows.length; i += 200)
    await db()
      .insertInto('sessions')
      .values(rows.slice(i, i + 200))
      .execute();
}

describe('session purge', () => {
  it('deletes signed-out, all-devices-ended and expired sessions; the active one keeps working', async () => {
    const { id, token: active } = await signedUp('purge-one@contoso.com');
    const live = await rowsOf(id);
    const signedOut = await login('purge-one@contoso.com');
    const expired = await login('purge-one@contoso.com');
    expect((await call(w.app, { method: 'POST', url: API.logout, token: signedOut })).statusCode).toBe(200);
    // Past its expiry (its 12 h have run out): what the clock does to every session eventually.
    const expiredId = (
      await db()
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', id)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).id;
    await db()
      .updateTable('sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', expiredId)
      .execute();
    expect(await rowsOf(id)).toBe(live + 2);

    const purged = await accountsAdmin(db()).purgeEndedSessions();
    expect(purged).toBeGreaterThanOrEqual(2);
    expect(await rowsOf(id)).toBe(live);
    expect((await me(active)).statusCode).toBe(200);
    for (const dead of [signedOut, expired])
      expect((await me(dead)).json().error_code).toBe('ERR_INVALID_ACCESS_TOKEN');
    const list = await call(w.app, { method: 'GET', url: API.sessions, token: active });
    expect(list.statusCode, list.body).toBe(200);
    expect(JSON.stringify(list.json())).toContain('"current":true');

    // Sign out of all devices: every row of the user ends and is then purged.
    expect((await call(w.app, { method: 'POST', url: API.logoutAll, token: active })).statusCode).toBe(200);
    await accountsAdmin(db()).purgeEndedSessions();
    expect(await rowsOf(id)).toBe(0);
    expect((await me(active)).statusCode).toBe(401);
  });

  it('a backlog of many batches is emptied by two instances purging at once, each row deleted by one of them', async () => {
    const { id, token: active } = await signedUp('purge-many@contoso.com');
    const live = await rowsOf(id);
    await endedRows(id, 1_200);
    expect(await rowsOf(id)).toBe(live + 1_200);
    // Two instances' connections to the same database (their own pools), purging at once in batches of 50.
    const instances = [openDatabase(w.t.config), openDatabase(w.t.config)];
    try {
      const counts = await Promise.all(
        instances.map((instance) => accountsAdmin(instance.kysely).purgeEndedSessions(Date.now(), 50)),
      );
      expect(counts[0]! + counts[1]!).toBe(1_200);
      expect(await rowsOf(id)).toBe(live);
      expect((await me(active)).statusCode).toBe(200);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });

  it('the job runs with the server: an instance that starts purges the backlog without being asked', async () => {
    const { id, token: active } = await signedUp('purge-job@contoso.com');
    const live = await rowsOf(id);
    await endedRows(id, 600);
    const other = await buildApp(w.t.config, { logger: false });
    try {
      await other.ready();
      await expect.poll(() => rowsOf(id), { timeout: 15_000, interval: 50 }).toBe(live);
      expect((await me(active)).statusCode).toBe(200);
    } finally {
      // Closing awaits a run still in flight (it must not outlive the database connection).
      await other.close();
    }
  });
});
