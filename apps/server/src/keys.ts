import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { JWTPayload, JWTVerifyOptions } from 'jose';

let jose: Promise<typeof import('jose')> | undefined;
/** jose, loaded with the first token signed or read (not at start). */
export const loadJose = () => (jose ??= import('jose'));

/**
 * The keys derived from SESSION_SECRET (HKDF-SHA256, one per use, so a key of one kind never verifies
 * another kind of token): sessions, e-mailed codes (HMAC of the stored hash), invite tokens, trusted-device
 * cookies (plugins/throttle.ts), single sign-on (sealed client secrets, the browser-binding cookie), and
 * authenticator-app secrets (sealed), and the domain administrators' DNS challenges and request links.
 * SESSION_SECRET_PREVIOUS adds a second key of each kind that is still accepted for verification, so
 * the secret can be rotated without logging everyone out or voiding the codes and invites in flight.
 */
export type KeyUse = 'session' | 'code' | 'invite' | 'device' | 'sso' | 'totp' | 'admin';

export interface KeyRing {
  /** Signs (the current secret's key). */
  sign: Uint8Array;
  /** Verifies: the current key first, then the previous secret's. */
  verify: readonly Uint8Array[];
}

export type AppKeys = Record<KeyUse, KeyRing>;

const derive = (secret: string, use: KeyUse) =>
  new Uint8Array(hkdfSync('sha256', secret, 'suite-keys-v1', `suite ${use} key`, 32));

export function deriveKeys(secret: string, previous?: string): AppKeys {
  const ring = (use: KeyUse): KeyRing => {
    const sign = derive(secret, use);
    return { sign, verify: previous && previous !== secret ? [sign, derive(previous, use)] : [sign] };
  };
  return {
    session: ring('session'),
    code: ring('code'),
    invite: ring('invite'),
    device: ring('device'),
    sso: ring('sso'),
    totp: ring('totp'),
    admin: ring('admin'),
  };
}

/*
 * Our own HS256 tokens (sessions, invites) are MACed with node:crypto's HMAC, synchronously on the main
 * thread. jose 6 signs and verifies through WebCrypto only (a KeyObject it exports and imports again),
 * and WebCrypto runs every HMAC as a job on libuv's thread pool, the pool the argon2 password hashes
 * occupy: under sign-in load each token waited behind a hash (2,000 sign+verify: 0.09 ms each idle,
 * 16.7 ms each beside four hashes on one core; node's HMAC 0.015 and 0.095 ms). jose still writes the
 * claims (UnsecuredJWT, the same builder SignJWT extends, so the tokens are byte for byte what SignJWT
 * made) and checks them (exp, iat, aud, required claims, crit and b64 headers).
 */
export type TokenHeader = { alg: 'HS256'; typ?: 'JWT' };

const mac = (key: Uint8Array, input: string) => createHmac('sha256', key).update(input).digest('base64url');

/** The compact JWS of these claims (built with jose's UnsecuredJWT), HS256 under the ring's signing key. */
export function signWithRing(ring: KeyRing, header: TokenHeader, claims: { encode(): string }): string {
  const payload = claims.encode().split('.')[1];
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${payload}`;
  return `${input}.${mac(ring.sign, input)}`;
}

/**
 * The token's claims when a key of the ring (current, then previous; each compared in constant time)
 * MACed it; then jose checks the claims, so an expired token's error carries genuine claims. A bad
 * signature throws JWSSignatureVerificationFailed, anything else jose's error for it.
 */
export async function verifyWithRing(
  token: string,
  ring: KeyRing,
  options: JWTVerifyOptions & { algorithms: 'HS256'[] },
): Promise<{ payload: JWTPayload }> {
  const { decodeProtectedHeader, errors, UnsecuredJWT } = await loadJose();
  const parts = token.split('.');
  if (parts.length !== 3) throw new errors.JWSInvalid('Invalid Compact JWS');
  const [encodedHeader = '', payload = '', signature = ''] = parts;
  const header = decodeProtectedHeader(token);
  if (!options.algorithms.includes(header.alg as 'HS256')) {
    throw new errors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed');
  }
  // Compared as base64url text, so a signature written another way (padding, stray characters) fails.
  const given = Buffer.from(signature);
  let valid = false;
  for (const key of ring.verify) {
    const expected = Buffer.from(mac(key, `${encodedHeader}.${payload}`));
    valid = (expected.length === given.length && timingSafeEqual(expected, given)) || valid;
  }
  if (!valid) throw new errors.JWSSignatureVerificationFailed();
  const { algorithms: _algorithms, ...claimOptions } = options;
  const unsigned = `${Buffer.from(JSON.stringify({ ...header, alg: 'none' })).toString('base64url')}.${payload}.`;
  return { payload: UnsecuredJWT.decode(unsigned, claimOptions).payload };
}

/*
 * Values a browser keeps for us and hands back (the trusted-device cookie, the SSO browser-binding
 * cookie): `value.mac`, the MAC an HMAC-SHA-256 under the ring's key over the purpose, the value and
 * what the value is bound to without carrying it (an account, say). The purpose is inside the MAC, so a
 * value signed for one cookie is never accepted as another's; the bound fields are inside it, so a
 * value made for one account does not verify for another although nothing in it names the account.
 */

/** The MAC input: JSON, so no choice of fields can make two different inputs read alike. */
const macOf = (key: Uint8Array, purpose: string, value: string, bound: readonly string[]) =>
  createHmac('sha256', key)
    .update(JSON.stringify([purpose, value, ...bound]))
    .digest();

/** `value.mac` (base64url MAC) under the ring's signing key. `value` may hold dots: the MAC is after the last. */
export function signValue(ring: KeyRing, purpose: string, value: string, bound: readonly string[] = []): string {
  return `${value}.${macOf(ring.sign, purpose, value, bound).toString('base64url')}`;
}

/**
 * The value of a `signValue` result when a key of the ring (current, then previous) signed it for this
 * purpose and these bound fields; null otherwise (missing, malformed, forged, other purpose or binding).
 * Every key is tried and compared in constant time.
 */
export function openSignedValue(
  ring: KeyRing,
  purpose: string,
  signed: string | undefined,
  bound: readonly string[] = [],
): string | null {
  if (!signed) return null;
  const dot = signed.lastIndexOf('.');
  if (dot <= 0) return null;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1), 'base64url');
  if (given.length !== 32) return null;
  let valid = false;
  for (const key of ring.verify) valid = timingSafeEqual(macOf(key, purpose, value, bound), given) || valid;
  return valid ? value : null;
}

/**
 * Two secrets (a stored hash and the hash of what was presented) compared in constant time: both are
 * hashed to the same length first, so neither the content nor the length leaks through timing.
 */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/* Secrets kept at rest (SSO client secrets, authenticator-app secrets), sealed with a ring's key. */
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
