import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { flowState, newStateValue } from '../state/repository.js';
import type { ProviderSession } from './sessions.js';

/** A session that asked for a fresh proof at its provider (POST /api/sso/reauth). */
export interface ReauthOf {
  sessionId: string;
  userId: string;
}

export interface SsoRequest {
  domain: string;
  protocol: 'oidc' | 'saml';
  data: string;
  /** The connection that started it: its answer is taken only on that connection's return address. */
  connectionId?: string;
  /** SHA-256 of the browser-binding cookie's value set by the start. */
  binding?: string;
  /** When it was started (epoch ms): a fresh proof's authentication must not be older. */
  startedAt?: number;
  reauth?: ReauthOf;
  /** A console's Test sign-in by this administrator: its answer is checked and reported, nobody signs in. */
  test?: { userId: string };
}

export interface Handoff {
  user_id: string;
  method: string;
  device: string | null;
  /** The address it signs in as (what "Continue as …?" names). */
  email?: string;
  /** SHA-256 of the binding cookie of the browser that started the sign-in. */
  binding?: string | null;
  /** A fresh proof's hand-off: the session it marks proved (it signs nobody in). */
  reauth?: ReauthOf;
  /** The provider's side of the session it makes (single logout). */
  provider?: ProviderSession;
}

const parse = <T>(data: string | null | undefined): T | undefined => (data ? (JSON.parse(data) as T) : undefined);

/**
 * What single sign-on keeps between two requests, in the one flow-state store so that any instance can
 * answer: the sign-ins we started (single use), the SAML assertions already accepted, and the /auth
 * hand-offs (only the SHA-256 of each value is stored).
 */
export function ssoStore(db: Kysely<Database>) {
  const state = flowState(db);
  return {
    async saveRequest(input: SsoRequest & { id: string; ttlMs: number }) {
      const { id, ttlMs, ...request } = input;
      await state.put('sso-request', id, { data: JSON.stringify(request), ttlMs });
    },

    /** A started sign-in that has not expired, without using it up (SAML: find the connection first). */
    async peekRequest(id: string): Promise<SsoRequest | undefined> {
      return parse<SsoRequest>((await state.peek('sso-request', id))?.data);
    },

    /** Uses a started sign-in up: the first caller gets it, every later one (a replay) gets undefined. */
    async takeRequest(id: string): Promise<SsoRequest | undefined> {
      return parse<SsoRequest>((await state.take('sso-request', id))?.data);
    },

    /** false when the assertion ID was accepted before (a replay). */
    firstUse: (id: string, ttlMs: number) => state.firstUse('sso-replay', id, ttlMs),

    /** A single-use hand-off token for the /auth page. */
    async createHandoff(input: {
      userId: string;
      email: string;
      method: string;
      device: string | null;
      binding: string | null;
      ttlMs: number;
      reauth?: ReauthOf;
      provider?: ProviderSession;
    }) {
      const token = newStateValue();
      const handoff: Handoff = {
        user_id: input.userId,
        method: input.method,
        device: input.device?.slice(0, 256) ?? null,
        email: input.email,
        binding: input.binding,
        ...(input.reauth ? { reauth: input.reauth } : {}),
        ...(input.provider ? { provider: input.provider } : {}),
      };
      await state.put('handoff', token, { subject: input.userId, data: JSON.stringify(handoff), ttlMs: input.ttlMs });
      return token;
    },

    async takeHandoff(token: string): Promise<Handoff | undefined> {
      return parse<Handoff>((await state.take('handoff', token))?.data);
    },

    /** A live hand-off, not used up (the "Continue as …?" question names its address first). */
    async peekHandoff(token: string): Promise<Handoff | undefined> {
      return parse<Handoff>((await state.peek('handoff', token))?.data);
    },
  };
}
