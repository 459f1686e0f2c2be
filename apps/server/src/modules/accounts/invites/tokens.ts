import { createHash, randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { loadJose, signWithRing, verifyWithRing, type KeyRing } from '../../../keys.js';

const ALGORITHM = 'HS256';
/** Audiences keep the two kinds of invite token apart (sessions have a key of their own). */
const INVITE_AUDIENCE = 'suite:invite';
const TEAM_AUDIENCE = 'suite:team-invite';

export const INVITE_TTL_DAYS = 7;
export const TEAM_INVITE_TTL_DAYS = 30;

const hashJti = (jti: string) => createHash('sha256').update(jti).digest('hex');

/**
 * A personal invite carries only what its flow reads: the invitee's address (the /confirm-invite screen
 * signs up with it, spec §3), the audience, a single-use id (jti: 128 random bits, base64url) and the
 * expiry (the screen shows "expired" from it). No `typ` header and no `iat`: nothing reads them, and
 * every character is one more in the link a mail shows (257 characters for a 20-character address
 * before, 200 now; earlier tokens, with both, still verify).
 */
export async function signInvite(keys: KeyRing, email: string, now = Date.now()) {
  const jti = randomBytes(16).toString('base64url');
  const expiresAt = now + INVITE_TTL_DAYS * 86_400_000;
  const { UnsecuredJWT } = await loadJose();
  const claims = new UnsecuredJWT({ email })
    .setAudience(INVITE_AUDIENCE)
    .setJti(jti)
    .setExpirationTime(Math.floor(expiresAt / 1000));
  const token = signWithRing(keys, { alg: ALGORITHM }, claims);
  return { token, jtiHash: hashJti(jti), expiresAt };
}

/** One generation of an inviter's team link (a row of `team_links`). */
export interface TeamLinkGeneration {
  generation: number;
  createdAt: number;
  expiresAt: number;
}

/**
 * The copyable team link: reusable, limited to the inviter's (corporate) domain, naming the link's
 * generation. Deterministic (no random claim): the same generation gives the same link on every
 * instance, so the link shown does not change from one visit to the next.
 */
export async function signTeamInvite(keys: KeyRing, domain: string, inviterId: string, link: TeamLinkGeneration) {
  const { UnsecuredJWT } = await loadJose();
  const claims = new UnsecuredJWT({ domain, gen: link.generation })
    .setAudience(TEAM_AUDIENCE)
    .setSubject(inviterId)
    .setIssuedAt(Math.floor(link.createdAt / 1000))
    .setExpirationTime(Math.floor(link.expiresAt / 1000));
  return signWithRing(keys, { alg: ALGORITHM, typ: 'JWT' }, claims);
}

export type ReadToken =
  | { kind: 'invite'; email: string; jtiHash: string; expired: boolean }
  /** generation null: a link made before links had generations (valid until its inviter replaces it). */
  | { kind: 'team'; domain: string; inviterId: string; generation: number | null; expired: boolean };

/** Verifies signature and audience; an expired token is still read (the screen shows "expired"). null: not ours. */
export async function readInviteToken(keys: KeyRing, token: string): Promise<ReadToken | null> {
  let payload: JWTPayload;
  let expired = false;
  try {
    ({ payload } = await verifyWithRing(token, keys, {
      algorithms: [ALGORITHM],
      audience: [INVITE_AUDIENCE, TEAM_AUDIENCE],
    }));
  } catch (error) {
    // The signature was checked before the expiry, so an expired token's claims are genuine.
    if (!(error instanceof (await loadJose()).errors.JWTExpired)) return null;
    payload = error.payload;
    expired = true;
  }
  const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
  if (aud === INVITE_AUDIENCE && typeof payload.email === 'string' && typeof payload.jti === 'string') {
    return { kind: 'invite', email: payload.email, jtiHash: hashJti(payload.jti), expired };
  }
  if (aud === TEAM_AUDIENCE && typeof payload.domain === 'string' && typeof payload.sub === 'string') {
    const generation = Number.isSafeInteger(payload.gen) ? (payload.gen as number) : null;
    return { kind: 'team', domain: payload.domain, inviterId: payload.sub, generation, expired };
  }
  return null;
}
