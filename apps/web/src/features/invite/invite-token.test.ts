import { describe, expect, it } from 'vitest';
import { checkInviteToken } from './invite-token';

const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const token = (payload: Record<string, unknown>) => `${b64({ alg: 'HS256' })}.${b64(payload)}.c2ln`;
const soon = () => Math.floor(Date.now() / 1000) + 600;

describe('checkInviteToken (spec §4)', () => {
  it('reads the invited address of a valid token', () => {
    expect(checkInviteToken(token({ email: 'a@b.com', exp: soon() }))).toEqual({ kind: 'ok', email: 'a@b.com' });
  });
  it('calls an expired token, or one without validity, expired', () => {
    expect(checkInviteToken(token({ email: 'a@b.com', exp: 1000 }))).toEqual({ kind: 'expired' });
    expect(checkInviteToken(token({ email: 'a@b.com' }))).toEqual({ kind: 'expired' });
  });
  it('sends team links to the sign-up screen and refuses garbage or nothing', () => {
    expect(checkInviteToken(token({ domain: 'b.com', exp: soon() }))).toEqual({ kind: 'team' });
    expect(checkInviteToken('not-a-jwt')).toEqual({ kind: 'invalid' });
    expect(checkInviteToken(null)).toEqual({ kind: 'invalid' });
  });
});
