import { decodeToken, isExpired } from '../../lib/jwt';

export type InviteTokenCheck =
  | { kind: 'ok'; email: string }
  /** A reusable team link: it belongs on the sign-up screen, where the invitee types an address. */
  | { kind: 'team' }
  | { kind: 'expired' }
  | { kind: 'invalid' };

/** Read without verifying (the server verifies on sign-up): an expired or missing validity is "expired" (spec §4). */
export function checkInviteToken(token: string | null): InviteTokenCheck {
  if (!token) return { kind: 'invalid' };
  const payload = decodeToken<{ email?: unknown; domain?: unknown }>(token);
  if (!payload) return { kind: 'invalid' };
  if (typeof payload.exp !== 'number' || isExpired(payload)) return { kind: 'expired' };
  if (typeof payload.email === 'string' && payload.email) return { kind: 'ok', email: payload.email };
  if (typeof payload.domain === 'string') return { kind: 'team' };
  return { kind: 'invalid' };
}
