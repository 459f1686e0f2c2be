import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/dialect.js';
import type { Database, MeetingSessionsTable, VideoconferencesTable } from '../../db/schema.js';

export type VideoconferenceRow = VideoconferencesTable;
export type SessionRow = MeetingSessionsTable;

/** Video conferences and their sessions. `k` may be a transaction. */
export function meetingsRepository(k: Kysely<Database>) {
  return {
    async insert(row: VideoconferenceRow): Promise<void> {
      await k.insertInto('videoconferences').values(row).execute();
    },
    find(id: string): Promise<VideoconferenceRow | undefined> {
      return k.selectFrom('videoconferences').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** A user's first name as stored (the users table is the accounts module's; read here, never written). */
    async firstNameOf(userId: string): Promise<string> {
      const row = await k.selectFrom('users').select('first_name').where('id', '=', userId).executeTakeFirst();
      return row?.first_name ?? '';
    },
    listByHost(hostId: string, limit: number): Promise<VideoconferenceRow[]> {
      return k
        .selectFrom('videoconferences')
        .selectAll()
        .where('host_id', '=', hostId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    async end(id: string, at: number): Promise<void> {
      await k
        .updateTable('videoconferences')
        .set({ ended_at: at })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .execute();
    },
    /** The open session (ended_at null) of each given conference. */
    openSessions(ids: string[]): Promise<SessionRow[]> {
      if (!ids.length) return Promise.resolve([]);
      return k
        .selectFrom('meeting_sessions')
        .selectAll()
        .where('videoconference_id', 'in', ids)
        .where('ended_at', 'is', null)
        .execute();
    },
    /** Starts a session; false when another one is already open (the unique partial index). */
    async startSession(videoconferenceId: string, at: number): Promise<boolean> {
      try {
        await k
          .insertInto('meeting_sessions')
          .values({
            id: randomBytes(12).toString('hex'),
            videoconference_id: videoconferenceId,
            started_at: at,
            last_activity_at: at,
            ended_at: null,
            end_reason: null,
          })
          .execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async touchSession(id: string, at: number): Promise<void> {
      await k
        .updateTable('meeting_sessions')
        .set({ last_activity_at: at })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .execute();
    },
    async endSession(id: string, at: number, reason: NonNullable<SessionRow['end_reason']>): Promise<void> {
      await k
        .updateTable('meeting_sessions')
        .set({ ended_at: at, end_reason: reason })
        .where('id', '=', id)
        .where('ended_at', 'is', null)
        .execute();
    },
  };
}

export type MeetingsRepository = ReturnType<typeof meetingsRepository>;
