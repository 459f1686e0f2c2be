import type { Kysely, Selectable } from 'kysely';
import type { AccessRequestsTable, Database, DomainAdminsTable } from '../../db/schema.js';

export type Via = DomainAdminsTable['via'];
export type RequestRow = Selectable<AccessRequestsTable>;

/**
 * Who administers which domain. `db` may be a transaction. A deactivated account keeps its grant (it
 * comes back with reactivation) but counts for nothing meanwhile: not an administrator, not mailed,
 * not one of the admins the last-admin rule keeps.
 */
export function adminsRepository(db: Kysely<Database>) {
  return {
    list: (domain: string) =>
      db
        .selectFrom('domain_admins')
        .innerJoin('users', 'users.id', 'domain_admins.user_id')
        .select([
          'domain_admins.user_id as user_id',
          'domain_admins.via as via',
          'domain_admins.created_at as created_at',
          'domain_admins.record_missing_since as record_missing_since',
          'users.email as email',
          'users.first_name as first_name',
          'users.last_name as last_name',
          'users.language as language',
        ])
        .where('domain_admins.domain', '=', domain)
        .where('users.active', '=', 1)
        .orderBy('users.email')
        .execute(),

    domainsOf: (userId: string) =>
      db
        .selectFrom('domain_admins')
        .select(['domain', 'via'])
        .where('user_id', '=', userId)
        .orderBy('domain')
        .execute(),

    async isAdmin(userId: string, domain: string): Promise<boolean> {
      const row = await db
        .selectFrom('domain_admins')
        .innerJoin('users', 'users.id', 'domain_admins.user_id')
        .select('domain_admins.user_id')
        .where('domain_admins.user_id', '=', userId)
        .where('domain_admins.domain', '=', domain)
        .where('users.active', '=', 1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async adminIds(userIds: readonly string[], domain: string): Promise<Set<string>> {
      if (userIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('domain_admins')
        .select('user_id')
        .where('domain', '=', domain)
        .where('user_id', 'in', userIds)
        .execute();
      return new Set(rows.map((r) => r.user_id));
    },

    /** false: already an administrator (the grant that exists stays as it was, but a DNS proof renews it). */
    async add(input: { domain: string; userId: string; via: Via; grantedBy: string | null }): Promise<boolean> {
      const existing = await db
        .selectFrom('domain_admins')
        .select('via')
        .where('domain', '=', input.domain)
        .where('user_id', '=', input.userId)
        .executeTakeFirst();
      if (existing) {
        if (input.via === 'dns') {
          await db
            .updateTable('domain_admins')
            .set({ record_missing_since: null, checked_at: Date.now() })
            .where('domain', '=', input.domain)
            .where('user_id', '=', input.userId)
            .execute();
        }
        return false;
      }
      await db
        .insertInto('domain_admins')
        .values({
          domain: input.domain,
          user_id: input.userId,
          via: input.via,
          granted_by: input.grantedBy,
          created_at: Date.now(),
          checked_at: input.via === 'dns' ? Date.now() : null,
          record_missing_since: null,
        })
        .onConflict((oc) => oc.columns(['domain', 'user_id']).doNothing())
        .execute();
      return true;
    },

    async remove(domain: string, userId: string): Promise<boolean> {
      const done = await db
        .deleteFrom('domain_admins')
        .where('domain', '=', domain)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(done.numDeletedRows) === 1;
    },

    async count(domain: string): Promise<number> {
      const row = await db
        .selectFrom('domain_admins')
        .innerJoin('users', 'users.id', 'domain_admins.user_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('domain_admins.domain', '=', domain)
        .where('users.active', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** DNS claims not checked since `before`. */
    dueClaims: (before: number, limit: number) =>
      db
        .selectFrom('domain_admins')
        .innerJoin('users', 'users.id', 'domain_admins.user_id')
        .select([
          'domain_admins.domain as domain',
          'domain_admins.user_id as user_id',
          'domain_admins.record_missing_since as record_missing_since',
          'users.email as email',
        ])
        .where('domain_admins.via', '=', 'dns')
        .where((eb) => eb.or([eb('domain_admins.checked_at', 'is', null), eb('domain_admins.checked_at', '<', before)]))
        .orderBy('domain_admins.checked_at')
        .limit(limit)
        .execute(),

    async checked(domain: string, userId: string, now: number, missingSince: number | null): Promise<void> {
      await db
        .updateTable('domain_admins')
        .set({ checked_at: now, record_missing_since: missingSince })
        .where('domain', '=', domain)
        .where('user_id', '=', userId)
        .execute();
    },
  };
}

/** Access requests (the public "Ask for access" rows are written by accounts' gate). */
export function requestsRepository(db: Kysely<Database>) {
  return {
    byId: (id: string) => db.selectFrom('access_requests').selectAll().where('id', '=', id).executeTakeFirst(),

    byToken: (tokenHash: string, now: number) =>
      db
        .selectFrom('access_requests')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('token_expires_at', '>', now)
        .executeTakeFirst(),

    /** Newest first, keyset on (created_at, id). */
    page: (
      domain: string,
      filter: { status?: RequestRow['status'] | undefined; reason?: RequestRow['reason'] },
      cursor: { at: number; id: string } | null,
      limit: number,
    ) => {
      let query = db.selectFrom('access_requests').selectAll().where('domain', '=', domain);
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.reason) query = query.where('reason', '=', filter.reason);
      if (cursor) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', cursor.at),
            eb.and([eb('created_at', '=', cursor.at), eb('id', '<', cursor.id)]),
          ]),
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** Requests whose administrators were not told yet (no link made). */
    unannounced: (limit: number) =>
      db
        .selectFrom('access_requests')
        .selectAll()
        .where('status', '=', 'pending')
        .where('token_expires_at', 'is', null)
        .orderBy('created_at')
        .limit(limit)
        .execute(),

    /** Claims the announcement (one instance wins) and stores the link's token hash. */
    async announce(id: string, tokenHash: string, expiresAt: number): Promise<boolean> {
      const done = await db
        .updateTable('access_requests')
        .set({ token_hash: tokenHash, token_expires_at: expiresAt })
        .where('id', '=', id)
        .where('token_expires_at', 'is', null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    /**
     * Announces the request without its own mail (the domain's share of mails was used up): it waits in
     * the console, and no link exists for it. One instance wins, as with `announce`.
     */
    async hold(id: string, now: number): Promise<boolean> {
      const done = await db
        .updateTable('access_requests')
        .set({ token_expires_at: now, mail_held: 1 })
        .where('id', '=', id)
        .where('token_expires_at', 'is', null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    /** How many of the domain's requests made since `since` were announced, by their own mail or held. */
    async announcedSince(domain: string, since: number): Promise<{ mailed: number; held: number }> {
      const rows = await db
        .selectFrom('access_requests')
        .select(['mail_held', (eb) => eb.fn.countAll<number>().as('n')])
        .where('domain', '=', domain)
        .where('created_at', '>', since)
        .where('token_expires_at', 'is not', null)
        .groupBy('mail_held')
        .execute();
      const of = (held: number) => Number(rows.find((r) => Number(r.mail_held) === held)?.n ?? 0);
      return { mailed: of(0), held: of(1) };
    },

    async pendingCount(domain: string): Promise<number> {
      const row = await db
        .selectFrom('access_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('domain', '=', domain)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Decides a pending request once (the link's token is used up with it); false: already decided. */
    async decide(id: string, status: 'approved' | 'refused', by: string, now: number): Promise<boolean> {
      const done = await db
        .updateTable('access_requests')
        .set({ status, decided_at: now, decided_by: by, token_hash: null })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },
  };
}
