import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SsoConnectionsTable } from '../../../db/schema.js';
import { seal, unseal, type KeyRing } from '../../../keys.js';

/** An OpenID Connect provider: discovery from the issuer, a confidential client. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  scopes: string;
  /** The Google Workspace (`hd` claim) the person must belong to; with Google as issuer, the domain. */
  hostedDomain?: string;
}

/** A SAML 2.0 identity provider, as its metadata describes it. */
export interface SamlSettings {
  entityId: string;
  ssoUrl: string;
  /** PEM bodies (base64 DER) of the IdP's signing certificates. */
  certificates: string[];
  /** The IdP's single logout service (HTTP-Redirect binding), from its metadata. */
  sloUrl?: string;
  /** Sign in with an unsolicited response (the IdP's app tile), after "Continue as …?" (`--allow-idp-initiated`). */
  allowIdpInitiated?: boolean;
}

interface ConnectionBase {
  domain: string;
  /** Stable and random: the last segment of the connection's own OIDC redirect URI. */
  id: string;
  /** Still answered on the old shared OIDC redirect URI (made before per-connection URIs). */
  sharedCallback: boolean;
  updatedAt: number;
}

export type Connection =
  | (ConnectionBase & { protocol: 'oidc'; settings: OidcSettings; clientSecret: string })
  | (ConnectionBase & { protocol: 'saml'; settings: SamlSettings });

export type NewConnection =
  { protocol: 'oidc'; settings: OidcSettings; clientSecret: string } | { protocol: 'saml'; settings: SamlSettings };

/**
 * Single-sign-on connections, one per e-mail domain. The OIDC client secret is stored sealed with a key
 * derived from SESSION_SECRET; a secret still sealed with SESSION_SECRET_PREVIOUS's key is sealed anew
 * with the current one when it is read, so a rotation carries the secrets along.
 */
export function connectionsRepository(db: Kysely<Database>, ring: KeyRing) {
  async function open(row: Selectable<SsoConnectionsTable>): Promise<Connection> {
    const base = {
      domain: row.domain,
      id: row.id ?? '',
      // A row without an id (never written so) can only be served where it was: the shared address.
      sharedCallback: Number(row.shared_callback) === 1 || !row.id,
      updatedAt: Number(row.updated_at),
    };
    if (row.protocol === 'saml')
      return { ...base, protocol: 'saml', settings: JSON.parse(row.settings) as SamlSettings };
    const { plain, rotated } = unseal(ring, row.secret ?? '');
    if (rotated) {
      await db
        .updateTable('sso_connections')
        .set({ secret: seal(ring, plain) })
        .where('domain', '=', row.domain)
        .execute();
    }
    return { ...base, protocol: 'oidc', settings: JSON.parse(row.settings) as OidcSettings, clientSecret: plain };
  }

  return {
    async get(domain: string): Promise<Connection | undefined> {
      const row = await db.selectFrom('sso_connections').selectAll().where('domain', '=', domain).executeTakeFirst();
      return row && open(row);
    },

    /** The connection a per-connection redirect URI names. */
    async byId(id: string): Promise<Connection | undefined> {
      const row = await db.selectFrom('sso_connections').selectAll().where('id', '=', id).executeTakeFirst();
      return row && open(row);
    },

    /** The SAML connection whose IdP has this entity ID (an unsolicited response names only its issuer). */
    async bySamlEntityId(entityId: string): Promise<Connection | undefined> {
      const rows = await db.selectFrom('sso_connections').selectAll().where('protocol', '=', 'saml').execute();
      const row = rows.find((r) => (JSON.parse(r.settings) as SamlSettings).entityId === entityId);
      return row && open(row);
    },

    /** The operator registered the connection's own redirect URI at the provider: the shared one stops. */
    async useOwnCallback(domain: string): Promise<boolean> {
      const done = await db
        .updateTable('sso_connections')
        .set({ shared_callback: 0 })
        .where('domain', '=', domain)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) > 0;
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
        // A new connection gets its id (and its own redirect URI); a changed one keeps both.
        .values({ domain, id: randomBytes(9).toString('base64url'), created_at: now, ...values })
        .onConflict((oc) => oc.column('domain').doUpdateSet(values))
        .execute();
    },

    async remove(domain: string): Promise<boolean> {
      const done = await db.deleteFrom('sso_connections').where('domain', '=', domain).executeTakeFirst();
      return Number(done.numDeletedRows) > 0;
    },
  };
}
