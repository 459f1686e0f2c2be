import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { AppConfig } from '../../config.js';
import { loadJose } from '../../keys.js';

/** Who the token is for, as Jitsi shows them (context.user). */
export interface MeetingUser {
  id: string;
  name: string;
  email?: string;
  avatar?: string;
}

export interface SignedMeetingToken {
  token: string;
  /** Host name the IFrame API is given (no scheme). */
  domain: string;
  /** Room name the IFrame API joins: JaaS rooms live under the app id ("<appId>/<room>"). */
  room: string;
}

export type MeetingTokenSigner = (input: {
  room: string;
  user: MeetingUser;
  moderator: boolean;
}) => Promise<SignedMeetingToken>;

/** Tokens are only checked by Jitsi when joining: two hours covers a waiting room and a long meeting start. */
const MEETING_TOKEN_TTL_S = 2 * 3600;
/** nbf a little in the past so that a Jitsi server whose clock is slightly behind still accepts the token. */
const CLOCK_SKEW_S = 30;

/** Jitsi's token features: recording and streaming only for the moderator (the host). */
function features(moderator: boolean): Record<string, boolean> {
  return {
    recording: moderator,
    livestreaming: moderator,
    transcription: moderator,
    'outbound-call': false,
    'sip-outbound-call': false,
  };
}

function userClaim(user: MeetingUser, moderator: boolean): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    email: user.email ?? '',
    avatar: user.avatar ?? '',
    moderator,
  };
}

/**
 * The signer for what is configured: JaaS (RS256, header kid, iss 'chat', aud 'jitsi', sub app id) when its
 * keys are set, otherwise self-hosted Jitsi (HS256, iss/aud app id, sub meeting domain). Undefined when
 * meetings are not configured. Throws at start-up on an unreadable JaaS key rather than on the first join.
 */
export function createMeetingTokenSigner(meet: AppConfig['meet']): MeetingTokenSigner | undefined {
  const domain = meet.domain;
  if (!domain) return undefined;
  if (meet.jaas) {
    const { appId, kid } = meet.jaas;
    const key: KeyObject = createPrivateKey(meet.jaas.privateKey);
    return async ({ room, user, moderator }) => {
      const now = Math.floor(Date.now() / 1000);
      const { SignJWT } = await loadJose();
      const token = await new SignJWT({
        room,
        context: {
          user: { ...userClaim(user, moderator), 'hidden-from-recorder': false },
          features: features(moderator),
        },
      })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuer('chat')
        .setAudience('jitsi')
        .setSubject(appId)
        .setIssuedAt(now)
        .setNotBefore(now - CLOCK_SKEW_S)
        .setExpirationTime(now + MEETING_TOKEN_TTL_S)
        .sign(key);
      return { token, domain, room: `${appId}/${room}` };
    };
  }
  if (meet.jitsi) {
    const { appId } = meet.jitsi;
    const key = new TextEncoder().encode(meet.jitsi.secret);
    return async ({ room, user, moderator }) => {
      const now = Math.floor(Date.now() / 1000);
      const { SignJWT } = await loadJose();
      const token = await new SignJWT({
        room,
        // Top-level `moderator` is read by token_affiliation-style plugins; context.user.moderator by the rest.
        moderator,
        context: { user: userClaim(user, moderator), features: features(moderator) },
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(appId)
        .setAudience(appId)
        .setSubject(domain.replace(/:\d+$/, '').toLowerCase())
        .setIssuedAt(now)
        .setNotBefore(now - CLOCK_SKEW_S)
        .setExpirationTime(now + MEETING_TOKEN_TTL_S)
        .sign(key);
      return { token, domain, room };
    };
  }
  return undefined;
}

/** What a meeting token this server signed says: the room and the id of the person (`guest-<id>` for guests). */
export interface MeetingTokenClaims {
  room: string;
  userId: string;
}

export type MeetingTokenVerifier = (token: string) => Promise<MeetingTokenClaims | null>;

/**
 * A meeting token is checked long after its 2-hour life when it proves presence: Jitsi lets a participant
 * stay past the token's expiry, and so must "who is here" (a guest keeps showing in a long meeting).
 */
const PRESENCE_PROOF_GRACE_S = 12 * 3600;

/**
 * Checks that a token was signed by this server for what is configured (the signer's key, algorithm,
 * issuer and audience); null for anything else (another deployment's token, a `jwt` link's, malformed).
 * Undefined when meetings are not configured.
 */
export function createMeetingTokenVerifier(meet: AppConfig['meet']): MeetingTokenVerifier | undefined {
  if (!meet.domain) return undefined;
  const check = meet.jaas
    ? {
        key: createPublicKey(createPrivateKey(meet.jaas.privateKey)) as KeyObject | Uint8Array,
        options: { algorithms: ['RS256'], issuer: 'chat', audience: 'jitsi' },
      }
    : meet.jitsi
      ? {
          key: new TextEncoder().encode(meet.jitsi.secret) as KeyObject | Uint8Array,
          options: { algorithms: ['HS256'], issuer: meet.jitsi.appId, audience: meet.jitsi.appId },
        }
      : undefined;
  if (!check) return undefined;
  return async (token) => {
    const { jwtVerify } = await loadJose();
    try {
      const { payload } = await jwtVerify(token, check.key, {
        ...check.options,
        clockTolerance: PRESENCE_PROOF_GRACE_S,
      });
      const userId = (payload.context as { user?: { id?: unknown } } | undefined)?.user?.id;
      return typeof payload.room === 'string' && typeof userId === 'string' ? { room: payload.room, userId } : null;
    } catch {
      return null;
    }
  };
}
