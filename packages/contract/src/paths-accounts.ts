/**
 * Account paths of spec §7 that the entry screens call (sign-up, codes, sign-in, invitations, guests). Mounted under API_PREFIX;
 * API (paths.ts) is all of them. A table per area, each its own module: the web bundles a module whole
 * into one chunk, so the first screens' chunk carries only the paths they call.
 */
export const ACCOUNT_API = {
  signup: '/v2/user',
  confirm: '/v2/user/confirm',
  updateUser: '/user/:id',
  completeRegister: '/v2/user/complete-register',
  resendConfirmation: '/v2/user/resend_confirmation',
  forgotPassword: '/v2/user/forgot-password',
  forgotPasswordConfirm: '/v2/user/forgot-password/confirm',
  login: '/auth/login',
  me: '/v2/user/me',
  logout: '/auth/logout',
  /** Single sign-on: home-realm discovery, start, the providers' return addresses. */
  ssoDiscover: '/sso/discover',
  ssoStart: '/sso/start',
  /** The welcome step of an account made by single sign-on: the terms only. */
  ssoCompleteRegister: '/sso/complete-register',
  /** The /auth page exchanges a single-use hand-off token for the session it stands for. */
  handoff: '/auth/handoff',
  /** Password sign-in of an account with two-step verification: the code step. */
  secondStep: '/auth/login/second-step',
  inviteTeammates: '/invite/teammates',
  invitationUrl: '/invite/url',
  validateInvite: '/invite/validate',
  guest: '/guest',
  /** Public: "Ask for access" from a "contact your domain administrator" screen. Always 202 { ok: true }. */
  accessRequests: '/access-requests',
  /**
   * A password sign-in of a domain that requires two-step verification, by a person without a second
   * factor: POST /auth/login answers TwoStepEnrolmentRequired; the pending token then gets the app's
   * secret (setup) and, with the app's first code, the session and the recovery codes.
   */
  loginEnrolSetup: '/auth/login/enrol/setup',
  loginEnrol: '/auth/login/enrol',
} as const;
