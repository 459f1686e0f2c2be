import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { loadJose, seal, unseal, type KeyRing } from '../../../keys.js';

/** What a sign-in through a provider leaves for single logout (carried by the /auth hand-off). */
export interface ProviderSession {
  domain: string;
  protocol: 'oidc' | 'saml';
  /** SAML NameID; OIDC `sub`. */
  subject: string;
  /** SAML SessionIndex; OIDC `sid`. */
  sessionIndex: string | null;
  nameIdFormat: string | null;
  /** The ID token, already sealed (it stays sealed in the hand-off too). */
  idToken: string | null;
}

export interface ProviderSessionRow extends ProviderSession {
  sessionId: string;
  userId: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The provider's side of our sessions: one row per session signed in through a provider, deleted with
 * the session. Our sign-out reads it to end the provider's session; a logout from the provider finds
 * the sessions to end by it (sessions live in the database, so ending them here ends them on every
 * instance).
 */
export function providerSessions(db: Kysely<Database>, ring: KeyRing) {
  return {
    sealIdToken: (idToken: string) => seal(ring, idToken),
    openIdToken: (sealed: string) => unseal(ring, sealed).plain,

    /** Records the provider's side of the session a hand-off token (a session JWT of ours) stands for. */
    async record(token: string, userId: string, session: ProviderSession): Promise<void> {
      const { decodeJwt } = await loadJose();
      const sid = decodeJwt(token).sid;
      if (typeof sid !== 'string') return;
      const row = await db.selectFrom('sessions').select('id').where('sid_hash', '=', sha256(sid)).executeTakeFirst();
      if (!row) return;
      await db
        .insertInto('sso_sessions')
        .values({
          session_id: row.id,
          user_id: userId,
          domain: session.domain,
          protocol: session.protocol,
          subject: session.subject.slice(0, 512),
          session_index: session.sessionIndex?.slice(0, 255) ?? null,
          name_id_format: session.nameIdFormat?.slice(0, 255) ?? null,
          id_token: session.idToken,
          created_at: Date.now(),
        })
        .execute();
    },

    /** The welcome step replaces its session with a full one: the provider's side moves along. */
    async move(fromSessionId: string, token: string, userId: string): Promise<void> {
      const row = await this.of(fromSessionId);
      if (row) await this.record(token, userId, row);
    },

    async of(sessionId: string): Promise<ProviderSessionRow | undefined> {
      const row = await db
        .selectFrom('sso_sessions')
        .selectAll()
        .where('session_id', '=', sessionId)
        .executeTakeFirst();
      return (
        row && {
          sessionId: row.session_id,
          userId: row.user_id,
          domain: row.domain,
          protocol: row.protocol,
          subject: row.subject,
          sessionIndex: row.session_index,
          nameIdFormat: row.name_id_format,
          idToken: row.id_token,
        }
      );
    },

    /**
     * The sessions a provider's logout names: its subject on the connection's domain, and when it names
     * its own session (SAML SessionIndex, OIDC sid) only the ones that sign-in made.
     */
    async matching(input: {
      domain: string;
      protocol: 'oidc' | 'saml';
      subject?: string;
      sessionIndexes?: readonly string[];
    }): Promise<{ sessionId: string; userId: string }[]> {
      let query = db
        .selectFrom('sso_sessions')
        .select(['session_id', 'user_id'])
        .where('domain', '=', input.domain)
        .where('protocol', '=', input.protocol);
      if (input.subject !== undefined) query = query.where('subject', '=', input.subject);
      if (input.sessionIndexes && input.sessionIndexes.length > 0)
        query = query.where('session_index', 'in', [...input.sessionIndexes]);
      const rows = await query.execute();
      return rows.map((r) => ({ sessionId: r.session_id, userId: r.user_id }));
    },
  };
}
