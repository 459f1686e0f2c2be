import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { newId } from './ids.js';

/** An abandoned hold (its instance died mid-upload) stops counting after this, and its object is purged. */
const RESERVATION_TTL_MS = 6 * 3600 * 1000;

/** Bytes an upload in progress holds against its owner's quota. */
export interface Hold {
  id: string;
  userId: string;
  bytes: number;
}

export interface QuotaDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  quotaBytes: number;
  now: () => number;
}

/**
 * Per-user storage quota: the stored files' sizes plus the holds of uploads in progress never pass
 * `quotaBytes`. Every check-and-change runs in a transaction with the user's row locked on
 * PostgreSQL (SQLite runs one write transaction at a time), so parallel uploads cannot both pass.
 */
export function storageQuota(deps: QuotaDeps) {
  const exceeded = () => new AppError('ERR_STORAGE_QUOTA_EXCEEDED');

  const locked = <T>(userId: string, work: (trx: Kysely<Database>) => Promise<T>) =>
    deps.db.transaction().execute(async (trx) => {
      if (deps.dialect === 'postgres') {
        await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
      }
      return work(trx);
    });

  async function storedBytes(db: Kysely<Database>, userId: string): Promise<number> {
    const row = await db
      .selectFrom('files')
      .select(sql<string | number>`coalesce(sum(size), 0)`.as('n'))
      .where('owner_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Stored bytes plus live holds, leaving out the hold `except` (the one being changed). */
  async function usedBytes(trx: Kysely<Database>, userId: string, except?: string): Promise<number> {
    let held = trx
      .selectFrom('file_reservations')
      .select(sql<string | number>`coalesce(sum(bytes), 0)`.as('n'))
      .where('user_id', '=', userId)
      .where('expires_at', '>', deps.now());
    if (except) held = held.where('id', '!=', except);
    const row = await held.executeTakeFirstOrThrow();
    return (await storedBytes(trx, userId)) + Number(row.n);
  }

  return {
    /**
     * Holds `bytes` for a new upload, or at least `least` when only that fits (the file's exact size
     * lies between the two), or throws ERR_STORAGE_QUOTA_EXCEEDED.
     */
    async reserve(userId: string, bytes: number, least = bytes): Promise<Hold> {
      const hold: Hold = { id: newId(), userId, bytes };
      // Expired holds no longer count (usedBytes); they are removed by the purge job, which first
      // deletes the object a dead upload may have left under the hold's id (abandoned.ts).
      await locked(userId, async (trx) => {
        const free = deps.quotaBytes - (await usedBytes(trx, userId));
        if (least > free) throw exceeded();
        hold.bytes = Math.min(bytes, free);
        await trx
          .insertInto('file_reservations')
          .values({ id: hold.id, user_id: userId, bytes: hold.bytes, expires_at: deps.now() + RESERVATION_TTL_MS })
          .execute();
      });
      return hold;
    },

    /** Raises the hold to `bytes` (an upload larger than it declared), or throws ERR_STORAGE_QUOTA_EXCEEDED. */
    async grow(hold: Hold, bytes: number): Promise<void> {
      await locked(hold.userId, async (trx) => {
        if ((await usedBytes(trx, hold.userId, hold.id)) + bytes > deps.quotaBytes) throw exceeded();
        await trx
          .updateTable('file_reservations')
          .set({ bytes, expires_at: deps.now() + RESERVATION_TTL_MS })
          .where('id', '=', hold.id)
          .execute();
      });
      hold.bytes = bytes;
    },

    /** Turns the hold into a stored file of `size` bytes (`insert` writes its row) after a last exact check. */
    async commit(hold: Hold, size: number, insert: (trx: Kysely<Database>) => Promise<unknown>): Promise<void> {
      await locked(hold.userId, async (trx) => {
        if ((await usedBytes(trx, hold.userId, hold.id)) + size > deps.quotaBytes) throw exceeded();
        await insert(trx);
        await trx.deleteFrom('file_reservations').where('id', '=', hold.id).execute();
      });
    },

    /** Gives the hold back (a failed upload); a committed one is already gone. */
    async release(hold: Hold): Promise<void> {
      await deps.db.deleteFrom('file_reservations').where('id', '=', hold.id).execute();
    },

    async usage(userId: string): Promise<{ used_bytes: number; quota_bytes: number }> {
      return { used_bytes: await storedBytes(deps.db, userId), quota_bytes: deps.quotaBytes };
    },
  };
}
export type StorageQuota = ReturnType<typeof storageQuota>;
