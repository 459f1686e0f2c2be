import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SsoConnectionsTable } from '../../../db/schema.js';
import { seal, unseal, type KeyRing } from '../../../keys.js';

/**
 * Which attribute (SAML) or claim (OIDC) carries the address and the names, when the provider's admin
 * named them otherwise than the defaults (sso/mapping.ts); matched without regard to case.
 */
export interface AttributeMapping {
  email?: string;
  firstName?: string;
  lastName?: string;
}

/** What both protocols' connections may say beside their own settings (all optional: added later). */
interface CommonSettings {
  mapping?: AttributeMapping;
  /**
   * The provider is the authority for the connection's domains: its address is taken without
   * `email_verified` (Entra ID work accounts never send the claim).
   */
  trustEmail?: boolean;
  /**
   * SHA-1 signatures and digests: 'refuse' (every connection made since the rule) or 'allow'
   * (`--allow-sha1`). Absent: a connection made before the rule, still accepted, warned about daily.
   */
  sha1?: 'allow' | 'refuse';
  /**
   * Set up from the domain administrator's console and not yet switched on: only a Test sign-in runs
   * through it until one passes (connections set with the operator's CLI are on at once).
   */
  awaitingTest?: boolean;
}

/** An OpenID Connect provider: discovery from the issuer, a confidential client. */
export interface OidcSettings extends CommonSettings {
  /** Exactly as the provider names itself (a trailing slash included): discovery and `iss` compare it. */
  issuer: string;
  clientId: string;
  scopes: string;
  /** The Google Workspace (`hd` claim) the person must belong to; with Google as issuer, the domain. */
  hostedDomain?: string;
}

/** A SAML 2.0 identity provider, as its metadata describes it. */
export interface SamlSettings extends CommonSettings {
  entityId: string;
  ssoUrl: string;
  /** PEM bodies (base64 DER) of the IdP's signing certificates. */
  certificates: string[];
  /** Where the metadata was read (an https URL): read again daily and by `sso refresh`. */
  metadataUrl?: string;
  /** When the metadata was last read (epoch ms). */
  metadataReadAt?: number;
  /** The IdP's single logout service (HTTP-Redirect binding), from its metadata. */
  sloUrl?: string;
  /** Sign in with an unsolicited response (the IdP's app tile), after "Continue as …?" (`--allow-idp-initiated`). */
  allowIdpInitiated?: boolean;
}

interface ConnectionBase {
  /** The connection's first domain, its key. */
  domain: string;
  /** Every e-mail domain it serves, its first one first. */
  domains: string[];
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
    const more = await db
      .selectFrom('sso_connection_domains')
      .select('domain')
      .where('connection_domain', '=', row.domain)
      .orderBy('domain')
      .execute();
    const base = {
      domain: row.domain,
      domains: [row.domain, ...more.map((m) => m.domain)],
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

  /** The key of the connection serving `domain` (its first domain or a further one). */
  async function keyOf(domain: string): Promise<string | undefined> {
    const own = await db.selectFrom('sso_connections').select('domain').where('domain', '=', domain).executeTakeFirst();
    if (own) return own.domain;
    const further = await db
      .selectFrom('sso_connection_domains')
      .select('connection_domain')
      .where('domain', '=', domain)
      .executeTakeFirst();
    return further?.connection_domain;
  }

  return {
    /** The connection serving `domain`, whichever of its domains it is. */
    async get(domain: string): Promise<Connection | undefined> {
      const key = await keyOf(domain);
      if (key === undefined) return undefined;
      const row = await db.selectFrom('sso_connections').selectAll().where('domain', '=', key).executeTakeFirst();
      return row && open(row);
    },

    /** Every connection (the metadata refresh and the certificate-expiry metric). */
    async list(): Promise<Connection[]> {
      const rows = await db.selectFrom('sso_connections').selectAll().orderBy('domain').execute();
      return Promise.all(rows.map(open));
    },

    /** The connection a per-connection redirect URI names. */
    async byId(id: string): Promise<Connection | undefined> {
      const row = await db.selectFrom('sso_connections').selectAll().where('id', '=', id).executeTakeFirst();
      return row && open(row);
    },

    /**
     * The SAML connection whose IdP has this entity ID (an unsolicited response names only its issuer).
     * None when several have it (rows made before `set` refused that): which tenant an unsolicited
     * response or a LogoutRequest belongs to must not depend on row order.
     */
    async bySamlEntityId(entityId: string): Promise<Connection | undefined> {
      const rows = await db.selectFrom('sso_connections').selectAll().where('protocol', '=', 'saml').execute();
      const matching = rows.filter((r) => (JSON.parse(r.settings) as SamlSettings).entityId === entityId);
      return matching.length === 1 ? open(matching[0]!) : undefined;
    },

    /** The operator registered the connection's own redirect URI at the provider: the shared one stops. */
    async useOwnCallback(domain: string): Promise<boolean> {
      domain = (await keyOf(domain)) ?? domain;
      const done = await db
        .updateTable('sso_connections')
        .set({ shared_callback: 0 })
        .where('domain', '=', domain)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) > 0;
    },

    /** Does the domain have a connection? (home-realm discovery: no secret opened) */
    async exists(domain: string): Promise<boolean> {
      return (await keyOf(domain)) !== undefined;
    },

    /**
     * Makes or changes the connection whose first domain is `domain`; `furtherDomains` (when given)
     * replaces its further ones. Throws DomainTakenError when one of them is another connection's, and
     * EntityIdTakenError when another connection has the same SAML IdP (one IdP serving several domains
     * is one connection with further domains).
     */
    async set(domain: string, connection: NewConnection, furtherDomains?: string[]): Promise<void> {
      const now = Date.now();
      const values = {
        protocol: connection.protocol,
        settings: JSON.stringify(connection.settings),
        secret: connection.protocol === 'oidc' ? seal(ring, connection.clientSecret) : null,
        updated_at: now,
      };
      await db.transaction().execute(async (trx) => {
        const further = [...new Set(furtherDomains ?? [])].filter((d) => d !== domain);
        const asFurther = await trx
          .selectFrom('sso_connection_domains')
          .select('connection_domain')
          .where('domain', '=', domain)
          .executeTakeFirst();
        if (asFurther && asFurther.connection_domain !== domain)
          throw new DomainTakenError(domain, asFurther.connection_domain);
        for (const d of further) {
          const owner =
            (await trx.selectFrom('sso_connections').select('domain').where('domain', '=', d).executeTakeFirst())
              ?.domain ??
            (
              await trx
                .selectFrom('sso_connection_domains')
                .select('connection_domain')
                .where('domain', '=', d)
                .executeTakeFirst()
            )?.connection_domain;
          if (owner !== undefined && owner !== domain) throw new DomainTakenError(d, owner);
        }
        if (connection.protocol === 'saml') {
          const others = await trx
            .selectFrom('sso_connections')
            .select(['domain', 'settings'])
            .where('protocol', '=', 'saml')
            .where('domain', '<>', domain)
            .execute();
          const holder = others.find(
            (r) => (JSON.parse(r.settings) as SamlSettings).entityId === connection.settings.entityId,
          );
          if (holder) throw new EntityIdTakenError(connection.settings.entityId, holder.domain);
        }
        await trx
          .insertInto('sso_connections')
          // A new connection gets its id (and its own redirect URI); a changed one keeps both.
          .values({ domain, id: randomBytes(9).toString('base64url'), created_at: now, ...values })
          .onConflict((oc) => oc.column('domain').doUpdateSet(values))
          .execute();
        if (furtherDomains === undefined) return;
        await trx.deleteFrom('sso_connection_domains').where('connection_domain', '=', domain).execute();
        if (further.length > 0)
          await trx
            .insertInto('sso_connection_domains')
            .values(further.map((d) => ({ domain: d, connection_domain: domain })))
            .execute();
      });
    },

    /** New settings read from the provider (a metadata refresh): id, secret and domains stay. */
    async updateSettings(domain: string, settings: OidcSettings | SamlSettings): Promise<void> {
      await db
        .updateTable('sso_connections')
        .set({ settings: JSON.stringify(settings), updated_at: Date.now() })
        .where('domain', '=', domain)
        .execute();
    },

    /** Removes the connection; given one of its further domains, only that domain leaves it. */
    async remove(domain: string): Promise<boolean> {
      const key = (await keyOf(domain)) ?? domain;
      if (key !== domain) {
        await db.deleteFrom('sso_connection_domains').where('domain', '=', domain).execute();
        return true;
      }
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sso_connection_domains').where('connection_domain', '=', key).execute();
        const done = await trx.deleteFrom('sso_connections').where('domain', '=', key).executeTakeFirst();
        return Number(done.numDeletedRows) > 0;
      });
    },
  };
}

/** A domain given to a connection already serves another one. */
export class DomainTakenError extends Error {
  constructor(
    readonly domain: string,
    readonly owner: string,
  ) {
    super(`${domain} is already served by the single-sign-on connection of ${owner}`);
    this.name = 'DomainTakenError';
  }
}

/** A SAML IdP given to a connection is already another connection's (its entity ID routes responses). */
export class EntityIdTakenError extends Error {
  constructor(
    readonly entityId: string,
    readonly owner: string,
  ) {
    super(
      `the identity provider ${entityId} is already the single-sign-on connection of ${owner}; to let it serve ` +
        `more domains, list them all as that connection's further domains: ` +
        `sso set ${owner} --saml --metadata <…> --domains <domain,…>`,
    );
    this.name = 'EntityIdTakenError';
  }
}
