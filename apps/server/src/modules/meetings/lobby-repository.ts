import type { Kysely } from 'kysely';
import type { Database, MeetingLobbyRequestsTable } from '../../db/schema.js';

export type LobbyRequestRow = MeetingLobbyRequestsTable;

/** Requests to join and co-hosts. `k` may be a transaction. */
export function lobbyRepository(k: Kysely<Database>) {
  return {
    byBrowser(meetingId: string, browserHash: string): Promise<LobbyRequestRow | undefined> {
      return k
        .selectFrom('meeting_lobby_requests')
        .selectAll()
        .where('videoconference_id', '=', meetingId)
        .where('browser_hash', '=', browserHash)
        .executeTakeFirst();
    },
    /** Denials a person collected in a meeting from any browser. */
    async denialsOf(meetingId: string, subject: string): Promise<number> {
      const row = await k
        .selectFrom('meeting_lobby_requests')
        .select((eb) => eb.fn.sum<number | string | null>('denials').as('n'))
        .where('videoconference_id', '=', meetingId)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async insert(row: LobbyRequestRow): Promise<void> {
      await k.insertInto('meeting_lobby_requests').values(row).execute();
    },
    /** A new request from a browser that asked before: waiting again, from now; its denials stay. */
    async reopen(
      id: string,
      who: Pick<LobbyRequestRow, 'kind' | 'subject' | 'name' | 'domain'>,
      now: number,
    ): Promise<void> {
      await k
        .updateTable('meeting_lobby_requests')
        .set({ ...who, status: 'waiting', session_id: null, created_at: now, last_seen_at: now, decided_at: null })
        .where('id', '=', id)
        .execute();
    },
    async touch(id: string, now: number): Promise<void> {
      await k
        .updateTable('meeting_lobby_requests')
        .set({ last_seen_at: now })
        .where('id', '=', id)
        .where('status', '=', 'waiting')
        .execute();
    },
    /** Marks the waiting requests nobody asked for since `before` as expired. */
    async expire(meetingId: string, before: number): Promise<void> {
      await k
        .updateTable('meeting_lobby_requests')
        .set({ status: 'expired' })
        .where('videoconference_id', '=', meetingId)
        .where('status', '=', 'waiting')
        .where('last_seen_at', '<', before)
        .execute();
    },
    waiting(meetingId: string, freshSince: number): Promise<LobbyRequestRow[]> {
      return k
        .selectFrom('meeting_lobby_requests')
        .selectAll()
        .where('videoconference_id', '=', meetingId)
        .where('status', '=', 'waiting')
        .where('last_seen_at', '>=', freshSince)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    /**
     * Decides waiting requests of this meeting (one by id, or all): only a request that is still waiting
     * and fresh, so a decision on a cancelled, expired or already decided one changes nothing. Returns
     * how many were decided.
     */
    async decide(
      meetingId: string,
      requestId: string | undefined,
      decision: { status: 'admitted'; sessionId: string } | { status: 'denied' },
      freshSince: number,
      now: number,
    ): Promise<number> {
      let query = k
        .updateTable('meeting_lobby_requests')
        .set((eb) =>
          decision.status === 'admitted'
            ? { status: 'admitted', session_id: decision.sessionId, decided_at: now }
            : { status: 'denied', session_id: null, decided_at: now, denials: eb('denials', '+', 1) },
        )
        .where('videoconference_id', '=', meetingId)
        .where('status', '=', 'waiting')
        .where('last_seen_at', '>=', freshSince);
      if (requestId !== undefined) query = query.where('id', '=', requestId);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    /**
     * Deletes the requests not used since `before` (the purge job; a waiting one unseen that long expired
     * long ago); returns how many.
     */
    async purgeOlderThan(before: number): Promise<number> {
      const done = await k
        .deleteFrom('meeting_lobby_requests')
        .where('last_seen_at', '<', before)
        .where((eb) => eb.or([eb('decided_at', 'is', null), eb('decided_at', '<', before)]))
        .executeTakeFirst();
      return Number(done.numDeletedRows);
    },
    async cancel(id: string, now: number): Promise<void> {
      await k
        .updateTable('meeting_lobby_requests')
        .set({ status: 'cancelled', decided_at: now })
        .where('id', '=', id)
        .where('status', '=', 'waiting')
        .execute();
    },

    async setAccess(meetingId: string, access: string): Promise<void> {
      await k.updateTable('videoconferences').set({ access }).where('id', '=', meetingId).execute();
    },
    async cohostIds(meetingId: string): Promise<string[]> {
      const rows = await k
        .selectFrom('meeting_cohosts')
        .select('user_id')
        .where('videoconference_id', '=', meetingId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => r.user_id);
    },
    cohosts(meetingId: string) {
      return k
        .selectFrom('meeting_cohosts')
        .innerJoin('users', 'users.id', 'meeting_cohosts.user_id')
        .select(['users.id', 'users.email', 'users.first_name', 'users.last_name'])
        .where('meeting_cohosts.videoconference_id', '=', meetingId)
        .orderBy('meeting_cohosts.created_at')
        .execute();
    },
    async addCohost(meetingId: string, userId: string, now: number): Promise<void> {
      await k
        .insertInto('meeting_cohosts')
        .values({ videoconference_id: meetingId, user_id: userId, created_at: now })
        .onConflict((oc) => oc.columns(['videoconference_id', 'user_id']).doNothing())
        .execute();
    },
    async removeCohost(meetingId: string, userId: string): Promise<boolean> {
      const result = await k
        .deleteFrom('meeting_cohosts')
        .where('videoconference_id', '=', meetingId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async emailOf(userId: string): Promise<string> {
      const row = await k.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
      return row?.email ?? '';
    },
    invitees(meetingId: string) {
      return k
        .selectFrom('meeting_invitees')
        .selectAll()
        .where('videoconference_id', '=', meetingId)
        .orderBy('created_at')
        .orderBy('email')
        .execute();
    },
    async addInvitee(row: Database['meeting_invitees']): Promise<boolean> {
      const done = await k
        .insertInto('meeting_invitees')
        .values(row)
        .onConflict((oc) => oc.columns(['videoconference_id', 'email']).doNothing())
        .executeTakeFirst();
      return Number(done.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async revokeInvitee(meetingId: string, id: string, now: number): Promise<boolean> {
      const done = await k
        .updateTable('meeting_invitees')
        .set({ revoked_at: now })
        .where('videoconference_id', '=', meetingId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) > 0;
    },
    /** An unrevoked invitee of this meeting by its link's hash; marks the first use. */
    async useInvite(meetingId: string, tokenHash: string, now: number): Promise<boolean> {
      const row = await k
        .selectFrom('meeting_invitees')
        .select(['id', 'joined_at'])
        .where('videoconference_id', '=', meetingId)
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (!row) return false;
      if (row.joined_at === null) {
        await k.updateTable('meeting_invitees').set({ joined_at: now }).where('id', '=', row.id).execute();
      }
      return true;
    },
    languageOf(email: string) {
      return k.selectFrom('users').select('language').where('email', '=', email).executeTakeFirst();
    },
    /** An active, confirmed account by address (the users table is the accounts module's: read, never written). */
    userByEmail(email: string) {
      return k
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name'])
        .where('email', '=', email)
        .where('active', '=', 1)
        .where('confirmed_at', 'is not', null)
        .executeTakeFirst();
    },
  };
}

export type LobbyRepository = ReturnType<typeof lobbyRepository>;
