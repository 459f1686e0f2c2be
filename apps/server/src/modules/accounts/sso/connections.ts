import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { KeyRing } from '../../../keys.js';

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

const SEALED = 'v1';

/** AES-256-GCM with the ring's signing key; `v1.iv.ciphertext+tag`, base64url. */
export function seal(ring: KeyRing, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ring.sign, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return [SEALED, iv.toString('base64url'), body.toString('base64url')].join('.');
}

/** Opens with each key of the ring (current first); `rotated` when only the previous secret's key did. */
export function unseal(ring: KeyRing, sealed: string): { plain: string; rotated: boolean } {
  const [version, iv, body] = sealed.split('.');
  if (version !== SEALED || !iv || !body) throw new Error('sealed secret: unknown format');
  const bytes = Buffer.from(body, 'base64url');
  for (const [index, key] of ring.verify.entries()) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
      return { plain: plain.toString('utf8'), rotated: index > 0 };
    } catch {
      // the next key
    }
  }
  throw new Error('sealed secret: no key opens it (SESSION_SECRET changed without SESSION_SECRET_PREVIOUS?)');
}

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
