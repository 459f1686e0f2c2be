import type { Kysely } from 'kysely';
import { SSO_CERTIFICATE_WARN_DAYS } from '@suite/contract';
import type { Database } from '../../../db/schema.js';
import type { KeyRing } from '../../../keys.js';
import { fetchIdpMetadata, parseIdpMetadata } from '../strategies/saml/metadata.js';
import { certificateExpiry, certificateFingerprint } from '../strategies/saml/saml.js';
import { connectionsRepository, type Connection, type SamlSettings } from './connections.js';

const DAY_MS = 24 * 3600_000;

/** A provider's signing certificate as an operator checks it. */
export interface CertificateState {
  fingerprint: string;
  /** When it ends (epoch ms); undefined: unreadable. */
  expiresAt: number | undefined;
  /** Ended, or ending within SSO_CERTIFICATE_WARN_DAYS. */
  warning: 'expired' | 'expiring' | undefined;
}

export function certificatesOf(settings: SamlSettings, now = Date.now()): CertificateState[] {
  return settings.certificates.map((body) => {
    const expiresAt = certificateExpiry(body);
    const warning =
      expiresAt === undefined
        ? undefined
        : expiresAt <= now
          ? 'expired'
          : expiresAt - now <= SSO_CERTIFICATE_WARN_DAYS * DAY_MS
            ? 'expiring'
            : undefined;
    return { fingerprint: certificateFingerprint(body), expiresAt, warning };
  });
}

/** What a refresh of one connection's metadata found. */
export interface RefreshResult {
  domain: string;
  changed: boolean;
  added: string[];
  removed: string[];
}

/**
 * Reads a SAML connection's metadata URL again and takes what the provider publishes now: its sign-on
 * URL and signing certificates (a rotation the provider announced in its metadata needs no person).
 * The entity picked from a federation file stays the one picked. Throws an Error naming the cause.
 */
export async function refreshConnection(
  db: Kysely<Database>,
  ring: KeyRing,
  connection: Connection,
  now = Date.now(),
): Promise<RefreshResult> {
  if (connection.protocol !== 'saml' || !connection.settings.metadataUrl)
    throw new Error(
      `${connection.domain} has no metadata URL to read (${connection.protocol === 'saml' ? 'set from a file: sso set --metadata <https URL>' : 'OpenID Connect reads its discovery document itself'})`,
    );
  const old = connection.settings;
  const read = parseIdpMetadata(await fetchIdpMetadata(old.metadataUrl!), old.entityId);
  const added = read.certificates.filter((c) => !old.certificates.includes(c)).map(certificateFingerprint);
  const removed = old.certificates.filter((c) => !read.certificates.includes(c)).map(certificateFingerprint);
  const changed = added.length > 0 || removed.length > 0 || read.ssoUrl !== old.ssoUrl;
  await connectionsRepository(db, ring).updateSettings(connection.domain, {
    ...old,
    ssoUrl: read.ssoUrl,
    certificates: read.certificates,
    metadataReadAt: now,
  });
  return { domain: connection.domain, changed, added, removed };
}

/** Every SAML connection with a metadata URL, refreshed; a failure of one is reported, the others go on. */
export async function refreshAll(
  db: Kysely<Database>,
  ring: KeyRing,
): Promise<{ results: RefreshResult[]; failures: { domain: string; error: string }[] }> {
  const results: RefreshResult[] = [];
  const failures: { domain: string; error: string }[] = [];
  for (const connection of await connectionsRepository(db, ring).list()) {
    if (connection.protocol !== 'saml' || !connection.settings.metadataUrl) continue;
    try {
      results.push(await refreshConnection(db, ring, connection));
    } catch (error) {
      failures.push({ domain: connection.domain, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { results, failures };
}
