/**
 * Paths of the signed-in security settings (sessions, passkeys, two-step verification, fresh proofs) and the
 * administrator's mail links. Mounted under API_PREFIX;
 * API (paths.ts) is all of them. A table per area, each its own module: the web bundles a module whole
 * into one chunk, so the first screens' chunk carries only the paths they call.
 */
export const SECURITY_API = {
  /** Sign out of all devices. */
  logoutAll: '/auth/logout-all',
  /** The signed-in user's active sessions (devices), and one of them to end. */
  sessions: '/v2/user/sessions',
  session: '/v2/user/sessions/:id',
  /** A fresh sign-in at the account's provider (signed in): proves the holder again, makes no session. */
  ssoReauth: '/sso/reauth',
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
  /** Public, with the mail link's token: what the request is (does not use the token up). */
  accessRequestLink: '/access-requests/link',
  /** Public, with the mail link's token: approve or refuse (uses the token up). */
  accessRequestDecide: '/access-requests/decide',
} as const;
