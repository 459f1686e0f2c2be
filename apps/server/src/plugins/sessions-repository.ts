import type { CompiledQuery, Kysely } from 'kysely';
import type { SessionMethodName } from '@suite/contract';
import type { Database, SessionsTable } from '../db/schema.js';

export type SessionKind = SessionsTable['kind'];
/** How a session was signed in (the contract's list: the sessions panel names it). */
export type SessionMethod = SessionMethodName;

/** What the per-request session check reads: the session joined with its account. */
export interface SessionCheckRow {
  id: string;
  email: string;
  active: number;
  sessions_valid_after: number;
  confirmed_at: number | null;
  registered_at: number | null;
  session_id: string;
  kind: SessionKind;
  method: string;
  last_seen_at: number;
  user_agent: string | null;
  amr: string;
  aal: number;
  proved_at: number | null;
  /** The session's start, and its domain's limits (console security policy; null: none). */
  created_at: number;
  session_max_ms: number | null;
  session_idle_ms: number | null;
  /** The domain's two-step requirement and its grace (for /me's banner: no second read of the policy). */
  require_two_step: number | null;
  two_step_grace_until: number | null;
}

export interface NewSessionRow {
  id: string;
  sidHash: string;
  userId: string;
  kind: SessionKind;
  method: SessionMethod;
  device: string | null;
  now: number;
  expiresAt: number;
  /** What the sign-in proved: its methods (`amr` values) and the assurance level they reach. */
  amr: readonly string[];
  aal: number;
}

/** Rows deleted per statement by the session purge: a big backlog never holds a long lock. */
const SESSION_PURGE_BATCH = 500;

/**
 * The one place that reads and writes the `sessions` table (the auth plugin, the sessions panel, the
 * purge job and the admin's domain/user switches all go through it). `db` may be a transaction.
 */
export function sessionsRepository(db: Kysely<Database>) {
  return {
    async insert(row: NewSessionRow): Promise<void> {
      await db
        .insertInto('sessions')
        .values({
          id: row.id,
          sid_hash: row.sidHash,
          user_id: row.userId,
          kind: row.kind,
          method: row.method,
          user_agent: row.device?.slice(0, 256) ?? null,
          created_at: row.now,
          last_seen_at: row.now,
          expires_at: row.expiresAt,
          revoked_at: null,
          amr: row.amr.join(','),
          aal: row.aal,
          proved_at: row.now,
        })
        .execute();
    },

    /**
     * The query every signed-in request runs, compiled once by the caller (Kysely builds and compiles
     * a query on every call otherwise); parameters: [sid_hash, user_id, now].
     */
    compileCheck(): CompiledQuery<SessionCheckRow> {
      return db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .leftJoin('domain_settings', 'domain_settings.domain', 'users.domain')
        .select([
          'users.id as id',
          'users.email as email',
          'users.active as active',
          'users.sessions_valid_after as sessions_valid_after',
          'users.confirmed_at as confirmed_at',
          'users.registered_at as registered_at',
          'sessions.id as session_id',
          'sessions.kind as kind',
          'sessions.method as method',
          'sessions.last_seen_at as last_seen_at',
          'sessions.user_agent as user_agent',
          'sessions.amr as amr',
          'sessions.aal as aal',
          'sessions.proved_at as proved_at',
          'sessions.created_at as created_at',
          'domain_settings.session_max_ms as session_max_ms',
          'domain_settings.session_idle_ms as session_idle_ms',
          'domain_settings.require_two_step as require_two_step',
          'domain_settings.two_step_grace_until as two_step_grace_until',
        ])
        .where('sessions.sid_hash', '=', '')
        .where('sessions.user_id', '=', '')
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', 0)
        .compile() as CompiledQuery<SessionCheckRow>;
    },

    async check(compiled: CompiledQuery<SessionCheckRow>, sidHash: string, userId: string, now: number) {
      const result = await db.executeQuery<SessionCheckRow>({ ...compiled, parameters: [sidHash, userId, now] });
      return result.rows[0];
    },

    async touch(id: string, now: number, agent: string | null): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: now, ...(agent === null ? {} : { user_agent: agent }) })
        .where('id', '=', id)
        .execute();
    },

    /**
     * The holder proved who they are again (a password, a passkey, an app code, a fresh sign-in at the
     * provider): what a sensitive change checks. `amr` is added to the session's methods. The
     * assurance is raised to `aal`, or with `exact` set to it: the level of this latest proof (a
     * password alone re-proves a two-step account at AAL1, whatever its sign-in reached).
     */
    async markProved(id: string, now: number, amr: readonly string[], aal: number, exact = false): Promise<void> {
      const row = await db.selectFrom('sessions').select(['amr', 'aal']).where('id', '=', id).executeTakeFirst();
      if (!row) return;
      const methods = [...new Set([...row.amr.split(',').filter(Boolean), ...amr])].join(',');
      await db
        .updateTable('sessions')
        .set({ proved_at: now, amr: methods.slice(0, 128), aal: exact ? aal : Math.max(Number(row.aal), aal) })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Ends sessions of a user: one (`only`), or all but one (`except`), or all. Returns how many. Ending
     * all (or all others: a password change) also moves the account's credential generation, which
     * voids every browser's device trust (plugins/throttle.ts): what ends the sessions ends that too.
     */
    async revoke(userId: string, scope: { only?: string; except?: string } = {}): Promise<number> {
      if (!scope.only) {
        await db
          .updateTable('users')
          .set((eb) => ({ credential_generation: eb('credential_generation', '+', 1) }))
          .where('id', '=', userId)
          .execute();
      }
      let query = db
        .updateTable('sessions')
        .set({ revoked_at: Date.now() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (scope.only) query = query.where('id', '=', scope.only);
      if (scope.except) query = query.where('id', '!=', scope.except);
      const done = await query.executeTakeFirst();
      return Number(done.numUpdatedRows);
    },

    /**
     * Ends every live session of the accounts of a domain (the domain was made inactive), and moves
     * their credential generation in one statement: their browsers' trust (trusted browsers, device
     * throttle) ends too, and re-activating the domain revives none of it.
     */
    async revokeDomain(domain: string): Promise<number> {
      await db
        .updateTable('users')
        .set((eb) => ({ credential_generation: eb('credential_generation', '+', 1) }))
        .where('domain', '=', domain)
        .execute();
      const done = await db
        .updateTable('sessions')
        .set({ revoked_at: Date.now() })
        .where('revoked_at', 'is', null)
        .where('user_id', 'in', db.selectFrom('users').select('id').where('domain', '=', domain))
        .executeTakeFirst();
      return Number(done.numUpdatedRows);
    },

    /** A user's live sessions (devices), most recently seen first. */
    listActive(userId: string, now: number) {
      return db
        .selectFrom('sessions')
        .select(['id', 'user_agent', 'method', 'created_at', 'last_seen_at'])
        .where('user_id', '=', userId)
        .where('kind', '=', 'session')
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .limit(100)
        .execute();
    },

    /**
     * Deletes the rows of sessions that can never be used again: ended or past their expiry. A token
     * whose row is gone is refused exactly like one whose row is ended. Deletes in batches of `batch`
     * ids until fewer remain; several instances may run it at once. Returns how many this call deleted.
     */
    async purgeEnded(now = Date.now(), batch = SESSION_PURGE_BATCH): Promise<number> {
      let deleted = 0;
      for (;;) {
        const ids = await db
          .selectFrom('sessions')
          .select('id')
          .where((eb) => eb.or([eb('revoked_at', 'is not', null), eb('expires_at', '<=', now)]))
          .limit(batch)
          .execute();
        if (ids.length === 0) return deleted;
        const done = await db
          .deleteFrom('sessions')
          .where(
            'id',
            'in',
            ids.map((row) => row.id),
          )
          .executeTakeFirst();
        deleted += Number(done.numDeletedRows);
        if (ids.length < batch) return deleted;
      }
    },
  };
}
