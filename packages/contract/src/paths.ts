/** API paths of spec §7 (mounted under API_PREFIX) plus the ones the issues add. */
export const API_PREFIX = '/api';

export const API = {
  health: '/health',
  /** Liveness: 200 while the process runs (no dependency is checked). */
  healthLive: '/health/live',
  config: '/config',
  docs: '/docs',
  // accounts (§7)
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
  /** Sign out of all devices. */
  logoutAll: '/auth/logout-all',
  /** The signed-in user's active sessions (devices), and one of them to end. */
  sessions: '/v2/user/sessions',
  session: '/v2/user/sessions/:id',
  /** Single sign-on: home-realm discovery, start, the providers' return addresses. */
  ssoDiscover: '/sso/discover',
  ssoStart: '/sso/start',
  ssoOidcCallback: '/sso/oidc/callback',
  ssoSamlMetadata: '/sso/saml/metadata',
  ssoSamlAcs: '/sso/saml/acs',
  /** SAML single logout (HTTP-Redirect and HTTP-POST): the IdP's LogoutRequest, or its LogoutResponse to ours. */
  ssoSamlSlo: '/sso/saml/slo',
  /** OpenID Connect back-channel logout (`/<connection id>`): the provider's logout token ends sessions. */
  ssoOidcBackchannelLogout: '/sso/oidc/backchannel-logout',
  /** A fresh sign-in at the account's provider (signed in): proves the holder again, makes no session. */
  ssoReauth: '/sso/reauth',
  /** The welcome step of an account made by single sign-on: the terms only. */
  ssoCompleteRegister: '/sso/complete-register',
  /** The /auth page exchanges a single-use hand-off token for the session it stands for. */
  handoff: '/auth/handoff',
  /** Password sign-in of an account with two-step verification: the code step. */
  secondStep: '/auth/login/second-step',
  /** Passkey sign-in: the challenge, then the signed answer. */
  passkeyLoginOptions: '/auth/passkey/options',
  passkeyLogin: '/auth/passkey',
  /** The Security panel: passkeys, two-step verification, recovery codes (signed in). */
  security: '/v2/user/security',
  passkeyRegistrationOptions: '/v2/user/passkeys/options',
  passkeys: '/v2/user/passkeys',
  passkey: '/v2/user/passkeys/:id',
  totpSetup: '/v2/user/totp/setup',
  totpEnable: '/v2/user/totp/enable',
  totpDisable: '/v2/user/totp/disable',
  recoveryCodes: '/v2/user/recovery-codes',
  /** A fresh proof for the session in hand (password, passkey or app code) before a factor change. */
  reauth: '/v2/user/reauth',
  /** The "this wasn't me" link of a factor-change mail: undoes the change, ends every session. */
  factorRevert: '/v2/user/factor-revert',
  inviteTeammates: '/invite/teammates',
  invitationUrl: '/invite/url',
  validateInvite: '/invite/validate',
  // meetings (§7)
  videoconferences: '/v2/videoconference',
  videoconference: '/v2/videoconference/:id',
  videoconferenceSession: '/v2/videoconference/:id/session',
  /** While joined, the room page says "still here" so the session does not reach its idle limit. */
  videoconferenceSessionPing: '/v2/videoconference/:id/session/ping',
  meetingToken: '/v2/videoconference/token',
  guestMeetingToken: '/v2/videoconference/guest/token',
  guest: '/guest',
  // files (§7)
  files: '/files',
  file: '/files/:fileId',
  fileShares: '/files/:fileId/shares',
  fileShare: '/files/:fileId/shares/:shareId',
  validatingLink: '/file/:fileId/validating_link',
  downloadLink: '/file/:fileId/download_link',
  // beside the domain administrator's console (its own paths: ADMIN_API, admin-paths.ts)
  /** Public: "Ask for access" from a "contact your domain administrator" screen. Always 202 { ok: true }. */
  accessRequests: '/access-requests',
  /** Public, with the mail link's token: what the request is (does not use the token up). */
  accessRequestLink: '/access-requests/link',
  /** Public, with the mail link's token: approve or refuse (uses the token up). */
  accessRequestDecide: '/access-requests/decide',
  /**
   * A password sign-in of a domain that requires two-step verification, by a person without a second
   * factor: POST /auth/login answers TwoStepEnrolmentRequired; the pending token then gets the app's
   * secret (setup) and, with the app's first code, the session and the recovery codes.
   */
  loginEnrolSetup: '/auth/login/enrol/setup',
  loginEnrol: '/auth/login/enrol',
} as const;

/** Fill `:params` of a path. */
export function apiPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
}
