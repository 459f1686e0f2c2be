import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { seal, unseal, type KeyRing } from '../../../keys.js';

/** An OpenID Connect provider: discovery from the issuer, a confidential client. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  scopes: string;
}

/** A SAML 2.0 identity provider, as its metadata describes it. */
export interface SamlSettings {
  entityId: string;
  ssoUrl: string;
  /** PEM bodies (base64 DER) of the IdP's signing certificates. */
  certificates: string[];
}

export type Connection =
  | { domain: string; protocol: 'oidc'; settings: OidcSettings; clientSecret: string; updatedAt: number }
  | { domain: string; protocol: 'saml'; settings: SamlSettings; updatedAt: number };

export type NewConnection =
  { protocol: 'oidc'; settings: OidcSettings; clientSecret: string } | { protocol: 'saml'; settings: SamlSettings };

/**
 * Single-sign-on connections, one per e-mail domain. The OIDC client secret is stored sealed with a key
 * derived from SESSION_SECRET; a secret still sealed with SESSION_SECRET_PREVIOUS's key is sealed anew
 * with the current one when it is read, so a rotation carries the secrets along.
 */
export function connectionsRepository(db: Kysely<Database>, ring: KeyRing) {
  return {
    async get(domain: string): Promise<Connection | undefined> {
      const row = await db.selectFrom('sso_connections').selectAll().where('domain', '=', domain).executeTakeFirst();
      if (!row) return undefined;
      const updatedAt = Number(row.updated_at);
      if (row.protocol === 'saml') {
        return { domain, protocol: 'saml', settings: JSON.parse(row.settings) as SamlSettings, updatedAt };
      }
      const { plain, rotated } = unseal(ring, row.secret ?? '');
      if (rotated) {
        await db
          .updateTable('sso_connections')
          .set({ secret: seal(ring, plain) })
          .where('domain', '=', domain)
          .execute();
      }
      return {
        domain,
        protocol: 'oidc',
        settings: JSON.parse(row.settings) as OidcSettings,
        clientSecret: plain,
        updatedAt,
      };
    },

    /** Does the domain have a connection? (home-realm discovery: no secret opened) */
    async exists(domain: string): Promise<boolean> {
      const row = await db
        .selectFrom('sso_connections')
        .select('domain')
        .where('domain', '=', domain)
        .executeTakeFirst();
      return row !== undefined;
    },

    async set(domain: string, connection: NewConnection): Promise<void> {
      const now = Date.now();
      const values = {
        protocol: connection.protocol,
        settings: JSON.stringify(connection.settings),
        secret: connection.protocol === 'oidc' ? seal(ring, connection.clientSecret) : null,
        updated_at: now,
      };
      await db
        .insertInto('sso_connections')
        .values({ domain, created_at: now, ...values })
        .onConflict((oc) => oc.column('domain').doUpdateSet(values))
        .execute();
    },

    async remove(domain: string): Promise<boolean> {
      const done = await db.deleteFrom('sso_connections').where('domain', '=', domain).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
  };
}
