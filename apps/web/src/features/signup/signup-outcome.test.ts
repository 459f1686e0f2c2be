import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { signupFailure } from './signup-outcome';

const err = (status: number, code: string) => new ApiError(status, code, 'server text');

describe('signupFailure (spec §8)', () => {
  it('shows the matching text for 400 and 401 with an error code', () => {
    expect(signupFailure(err(400, 'ERR_EMAIL_IN_USE'))).toEqual({ kind: 'error', code: 'ERR_EMAIL_IN_USE' });
    expect(signupFailure(err(401, 'ERR_INVALID_ACCESS_TOKEN'))).toEqual({
      kind: 'error',
      code: 'ERR_INVALID_ACCESS_TOKEN',
    });
    expect(signupFailure(err(400, 'ERR_PERSONAL_EMAIL_NOT_ALLOWED'))).toEqual({ kind: 'field', key: 'personalEmail' });
    expect(signupFailure(err(400, 'ERR_INVALID_EMAIL'))).toEqual({ kind: 'field', key: 'invalidEmail' });
    // The server answers an SSO-only domain's sign-up with 400, so its text is shown, not "Request Error".
    expect(signupFailure(err(400, 'ERR_SSO_LOGIN_ONLY'))).toEqual({ kind: 'error', code: 'ERR_SSO_LOGIN_ONLY' });
  });

  it('answers MSG_REQUEST_ERROR for 401 without an error code and for other statuses', () => {
    expect(signupFailure(err(401, 'ERR_REQUEST'))).toEqual({ kind: 'error', code: 'MSG_REQUEST_ERROR' });
    expect(signupFailure(err(500, 'ERR_INTERNAL'))).toEqual({ kind: 'error', code: 'MSG_REQUEST_ERROR' });
    expect(signupFailure(err(403, 'ERR_FORBIDDEN'))).toEqual({ kind: 'error', code: 'MSG_REQUEST_ERROR' });
    expect(signupFailure(new Error('boom'))).toEqual({ kind: 'error', code: 'MSG_REQUEST_ERROR' });
  });

  it('goes to the code screen on 409, except for an invite that was already accepted', () => {
    expect(signupFailure(err(409, 'ERR_USER_NOT_CONFIRMED_SIGNUP'))).toEqual({ kind: 'code-screen' });
    expect(signupFailure(err(409, 'ERR_INVITE_ALREADY_ACCEPTED'))).toEqual({
      kind: 'error',
      code: 'ERR_INVITE_ALREADY_ACCEPTED',
    });
  });

  it('keeps connection and rate-limit texts', () => {
    expect(signupFailure(err(0, 'ERR_NETWORK'))).toEqual({ kind: 'error', code: 'ERR_NETWORK' });
    expect(signupFailure(err(0, 'ERR_TIMEOUT'))).toEqual({ kind: 'error', code: 'ERR_TIMEOUT' });
    expect(signupFailure(err(429, 'ERR_RATE_LIMITED'))).toEqual({ kind: 'error', code: 'ERR_RATE_LIMITED' });
  });
});
