import { ACCOUNT_API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/**
 * An invitee whose invite was accepted but who never set a password: a plain sign-up of the address
 * mails a new code (409 ERR_USER_NOT_CONFIRMED_SIGNUP), whose screen leads on to the welcome step.
 * An address with a password answers 409 ERR_EMAIL_IN_USE: the invitation really is done.
 */
export function resumeSignup(email: string, captchaToken: string | undefined) {
  return apiRequest({
    method: 'POST',
    path: ACCOUNT_API.signup,
    body: { email, ...(captchaToken ? { captcha_token: captchaToken } : {}) },
    schema: lazySchema('SignupResponseSchema'),
  });
}

/** Accepting an invite is a sign-up with its token (spec §4): POST /v2/user `{email, invite_token}`. */
export function acceptInvite(email: string, inviteToken: string) {
  return apiRequest({
    method: 'POST',
    path: ACCOUNT_API.signup,
    body: { email, invite_token: inviteToken },
    schema: lazySchema('SignupResponseSchema'),
  });
}

/**
 * Who invites and to which team (GET /invite/validate; both only while the invitation is pending). Read
 * without a schema: the screen shows the two strings when they are there, nothing otherwise.
 */
export function inviteSender(inviteToken: string) {
  return apiRequest<{ inviter?: string | null; team?: string }>({
    path: ACCOUNT_API.validateInvite,
    query: { inviteToken },
  });
}
