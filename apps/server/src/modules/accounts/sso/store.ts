import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * What single sign-on keeps between two requests, in the database so that any instance can answer:
 * the sign-ins we started (single use), the SAML assertions already accepted, and the /auth hand-offs.
 */
export function ssoStore(db: Kysely<Database>) {
  return {
    async saveRequest(input: { id: string; domain: string; protocol: 'oidc' | 'saml'; data: string; ttlMs: number }) {
      await db
        .insertInto('sso_requests')
        .values({
          id: input.id,
          domain: input.domain,
          protocol: input.protocol,
          data: input.data,
          expires_at: Date.now() + input.ttlMs,
        })
        .execute();
    },

    /** A started sign-in that has not expired, without using it up (SAML: find the connection first). */
    async peekRequest(id: string) {
      return db
        .selectFrom('sso_requests')
        .selectAll()
        .where('id', '=', id)
        .where('expires_at', '>', Date.now())
        .executeTakeFirst();
    },

    /** Uses a started sign-in up: the first caller gets it, every later one (a replay) gets undefined. */
    async takeRequest(id: string) {
      const row = await db
        .deleteFrom('sso_requests')
        .where('id', '=', id)
        .returning(['id', 'domain', 'protocol', 'data', 'expires_at'])
        .executeTakeFirst();
      return row && Number(row.expires_at) > Date.now() ? row : undefined;
    },

    /** false when the assertion ID was accepted before (a replay). */
    async firstUse(id: string, ttlMs: number): Promise<boolean> {
      const done = await db
        .insertInto('sso_replays')
        .values({ id, expires_at: Date.now() + ttlMs })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(done.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** A single-use hand-off token for the /auth page (only its SHA-256 is stored). */
    async createHandoff(input: { userId: string; method: string; device: string | null; ttlMs: number }) {
      const token = randomBytes(32).toString('base64url');
      await db
        .insertInto('handoffs')
        .values({
          token_hash: sha256(token),
          user_id: input.userId,
          method: input.method,
          device: input.device?.slice(0, 256) ?? null,
          expires_at: Date.now() + input.ttlMs,
        })
        .execute();
      return token;
    },

    async takeHandoff(token: string) {
      const row = await db
        .deleteFrom('handoffs')
        .where('token_hash', '=', sha256(token))
        .returning(['user_id', 'method', 'device', 'expires_at'])
        .executeTakeFirst();
      return row && Number(row.expires_at) > Date.now() ? row : undefined;
    },

    /** Deletes expired requests, replay entries and hand-offs; returns how many rows. */
    async purgeExpired(now = Date.now()): Promise<number> {
      let deleted = 0;
      for (const table of ['sso_requests', 'sso_replays', 'handoffs'] as const) {
        const done = await db.deleteFrom(table).where('expires_at', '<=', now).executeTakeFirst();
        deleted += Number(done.numDeletedRows);
      }
      return deleted;
    },
  };
}
