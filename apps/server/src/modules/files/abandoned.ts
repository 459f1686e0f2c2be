import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FileStorage } from '../../plugins/storage.js';

/** Expired holds reconciled per round (a crash leaves a handful; a long backlog is worked off in rounds). */
const BATCH = 100;

/**
 * Uploads whose instance died mid-way (SIGKILL, power loss): the object is stored under its quota
 * hold's id (service.ts), so an expired hold names what may be left in the store, complete or not,
 * and the files table says whether a row took it over. Each expired hold's object is deleted unless a
 * file row names it, then the hold itself. A single-part PutObject that completed before the kill is
 * not caught by the bucket's "abort incomplete multipart uploads" rule; this is what removes it.
 * Holds expire RESERVATION_TTL_MS (6 h) after they were last raised, far past any request
 * (HTTP_REQUEST_TIMEOUT_SECONDS, 15 min by default), so a running upload is never touched.
 * Store unreachable: the call fails and the holds stay for the next run. Returns the objects deleted.
 */
export async function purgeAbandonedUploads(db: Kysely<Database>, storage: FileStorage, now = Date.now()) {
  let deleted = 0;
  for (;;) {
    const expired = (
      await db.selectFrom('file_reservations').select('id').where('expires_at', '<=', now).limit(BATCH).execute()
    ).map((r) => r.id);
    if (expired.length === 0) return deleted;
    const named = new Set(
      (await db.selectFrom('files').select('storage_key').where('storage_key', 'in', expired).execute()).map(
        (r) => r.storage_key,
      ),
    );
    for (const id of expired) {
      if (!named.has(id) && (await storage.stat(id))) {
        await storage.delete(id);
        deleted++;
      }
      await db.deleteFrom('file_reservations').where('id', '=', id).execute();
    }
    if (expired.length < BATCH) return deleted;
  }
}
