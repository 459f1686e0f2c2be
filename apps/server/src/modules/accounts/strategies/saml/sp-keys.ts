import { createHash, randomBytes, webcrypto } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SSO_SP_KEY_OVERLAP_DAYS } from '@suite/contract';
import type { Database } from '../../../../db/schema.js';
import { seal, unseal, type KeyRing } from '../../../../keys.js';

/** One of our service provider's key pairs: the private key (PKCS#8 PEM) and its certificate. */
export interface SpKey {
  id: string;
  privateKey: string;
  /** Base64 DER, as metadata carries it. */
  certificate: string;
  /** SHA-256 fingerprint of the certificate (what `sso sp-key` prints and an IdP admin compares). */
  fingerprint: string;
  createdAt: number;
}

const OVERLAP_MS = SSO_SP_KEY_OVERLAP_DAYS * 24 * 3600_000;
/** The certificate is only a carrier for the public key (IdPs do not check its chain): long-lived. */
const CERTIFICATE_YEARS = 10;

const fingerprintOf = (certificate: string) =>
  createHash('sha256')
    .update(Buffer.from(certificate, 'base64'))
    .digest('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:');

/** A new RSA key pair (xmlenc's key transport, RSA-OAEP, needs RSA) with a self-signed certificate. */
async function generate(entityId: string): Promise<{ privateKey: string; certificate: string }> {
  // @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API.
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const now = new Date();
  const notAfter = new Date(now);
  notAfter.setFullYear(now.getFullYear() + CERTIFICATE_YEARS);
  const host = new URL(entityId).hostname.replace(/[,+"\\<>;=]/g, '');
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomBytes(8)
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
      name: `CN=${host} SAML service provider`,
      notBefore: now,
      notAfter,
      signingAlgorithm: algorithm,
      keys,
    },
    webcrypto as unknown as Crypto,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return {
    privateKey: `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`,
    certificate: Buffer.from(cert.rawData).toString('base64'),
  };
}

/**
 * Our SAML service provider's key pairs, in the database so that every instance decrypts (and signs)
 * with the same one. The first one is made on first use; `sso sp-key rotate` makes a new current one
 * and retires the others. A retired key still decrypts for SSO_SP_KEY_OVERLAP_DAYS: IdPs that read our
 * metadata URL pick the new certificate up within a day, and those given the metadata by hand (Entra
 * ID, Okta, ADFS) keep encrypting to the old one until their admin uploads the new file.
 */
export function spKeys(db: Kysely<Database>, ring: KeyRing, entityId: string) {
  const open = (row: { id: string; private_key: string; certificate: string; created_at: number }): SpKey => ({
    id: row.id,
    privateKey: unseal(ring, row.private_key).plain,
    certificate: row.certificate,
    fingerprint: fingerprintOf(row.certificate),
    createdAt: Number(row.created_at),
  });

  async function insert(): Promise<SpKey> {
    const made = await generate(entityId);
    const row = {
      id: randomBytes(9).toString('base64url'),
      private_key: seal(ring, made.privateKey),
      certificate: made.certificate,
      created_at: Date.now(),
      retired_at: null,
    };
    await db.insertInto('sso_sp_keys').values(row).execute();
    return open(row);
  }

  /** The usable keys, current first (two instances that made a first key at once agree on the newest). */
  async function live(now: number): Promise<SpKey[]> {
    const rows = await db
      .selectFrom('sso_sp_keys')
      .selectAll()
      .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', now - OVERLAP_MS)]))
      .orderBy('retired_at', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const current = rows.filter((r) => r.retired_at === null);
    const retired = rows.filter((r) => r.retired_at !== null);
    return [...current, ...retired].map(open);
  }

  return {
    /** The current key (made on first use). */
    async current(): Promise<SpKey> {
      return (await live(Date.now()))[0] ?? insert();
    },

    /** Every key that still decrypts, current first. */
    async decrypting(): Promise<SpKey[]> {
      const keys = await live(Date.now());
      return keys.length > 0 ? keys : [await insert()];
    },

    /** A new current key; the others retire (they still decrypt for the overlap). */
    async rotate(): Promise<{ current: SpKey; retired: number; decryptsUntil: Date }> {
      const now = Date.now();
      const made = await insert();
      const done = await db
        .updateTable('sso_sp_keys')
        .set({ retired_at: now })
        .where('retired_at', 'is', null)
        .where('id', '!=', made.id)
        .executeTakeFirst();
      return { current: made, retired: Number(done.numUpdatedRows), decryptsUntil: new Date(now + OVERLAP_MS) };
    },
  };
}
