/** Business constants of spec §9 (and the few the issues add). One source for server and web. */

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 64;
export const CODE_LENGTH = 6;
export const MAX_CODE_TRIES = 3;
/**
 * At most one code mail per address and purpose in this many seconds (GoTrue's rule against mail
 * bombs), unless the previous code can no longer be used (its tries spent, or used). The code screen's
 * "Send again" waits as long.
 */
export const CODE_MAIL_SPACING_S = 60;
/** Lifetime of an e-mailed code (at most 10 minutes). */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_TEAMMATES = 5;

/** Two-step verification and passkeys. */
/** RFC 6238 step and the steps either side accepted (clock drift). */
export const TOTP_PERIOD_S = 30;
export const TOTP_WINDOW = 1;
/** Recovery codes handed out at once; each works once. Shown as `xxxxx-xxxxx` (lower-case base32). */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-?[a-z2-7]{5}$/;
/** Wrong codes one pending second step accepts before the password must be entered again. */
export const SECOND_STEP_MAX_TRIES = 5;
/** How long the second step waits after the password (and a passkey ceremony after its challenge). */
export const SECOND_STEP_TTL_MS = 5 * 60 * 1000;
/** "Trust this browser": how long a completed two-step sign-in lets this browser skip the second step. */
export const TRUSTED_BROWSER_TTL_MS = 30 * 24 * 3600 * 1000;
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const PASSKEY_NAME_MAX = 64;
/** Passkeys one account may keep. */
export const MAX_PASSKEYS = 20;
/**
 * How recent the last proof of a session must be for a factor change (a passkey, two-step
 * verification, recovery codes, the password): a stolen session alone cannot add the thief's factor.
 */
export const PROOF_FRESH_MS = 10 * 60 * 1000;
/** How long the "this wasn't me" link of a factor-change mail works (once). */
export const FACTOR_REVERT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const TEAMMATE_NEXT_FIELD_AFTER_CHARS = 3;
export const ACCEPTED_TERMS_VERSION = 1;

export const AUTH_HTTP_TIMEOUT_MS = 6000;

/**
 * reCAPTCHA v3 actions (spec §7): the web asks for a token for one of these, the server accepts a token
 * only for the action(s) of the route it was sent to.
 */
export const CAPTCHA_ACTIONS = ['signup', 'login', 'recovery', 'resend', 'code'] as const;
export type CaptchaAction = (typeof CAPTCHA_ACTIONS)[number];

/** Invite acceptance and file download progress (§4, §9). */
export const PROGRESS_STEP = 10;
export const PROGRESS_INTERVAL_MS = 500;
export const PROGRESS_ACTION_AT = 30;
export const PROGRESS_DONE = 100;
export const REDIRECT_AFTER_MS = 3000;
export const FORCED_DOWNLOAD_AFTER_MS = 1000;

/** Meeting timings (§4, §9). */
export const MEET_JOIN_DELAY_MS = 2000;
export const WAITING_FOR_HOST_RETRY_MS = 5000;
export const RECORDING_START_DELAY_MS = 3000;
export const RECORDING_RETRY_AT_MS = 120_000;
export const RECORDING_MAX_RETRIES = 1;
/** Spec says "not shown": our choice, 30 s to answer the keep-alive prompt. */
export const KEEP_ALIVE_COUNTDOWN_S = 30;

export const CODE_REFOCUS_MS = 1000;

export const LANGUAGES = ['en', 'pt', 'es', 'hi', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
/** BCP 47 tags the spec names: en-US by default, pt-BR for Portuguese browsers. */
export const LANGUAGE_TAGS: Record<Language, string> = {
  en: 'en-US',
  pt: 'pt-BR',
  es: 'es',
  hi: 'hi',
  it: 'it',
};

export const PROFILE_TYPES = ['PROFESSIONAL', 'PERSONAL'] as const;
export type ProfileType = (typeof PROFILE_TYPES)[number];

export const CODE_PURPOSES = ['confirm', 'recovery'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** `/user/{componentUrl}` values and the step totals the dots show (none for login). */
export const USER_COMPONENTS = [
  'signup',
  'welcome',
  'add-teammates',
  'login',
  'recovery-password',
  'check-token',
  'check-token-recovery',
  'update-password',
] as const;
export type UserComponent = (typeof USER_COMPONENTS)[number];
export const USER_STEPS: Record<UserComponent, { total: number; index: number } | null> = {
  signup: { total: 4, index: 0 },
  'check-token': { total: 4, index: 1 },
  welcome: { total: 4, index: 2 },
  'add-teammates': { total: 4, index: 3 },
  'recovery-password': { total: 3, index: 0 },
  'check-token-recovery': { total: 3, index: 1 },
  'update-password': { total: 3, index: 2 },
  login: null,
};

/** Jitsi toolbar: the 26 buttons our room offers, minus those in `hideButtons` (§9). */
export const TOOLBAR_BUTTONS = [
  'camera',
  'chat',
  'closedcaptions',
  'desktop',
  'download',
  'embedmeeting',
  'etherpad',
  'feedback',
  'filmstrip',
  'fullscreen',
  'hangup',
  'help',
  'invite',
  'livestreaming',
  'microphone',
  'participants-pane',
  'profile',
  'raisehand',
  'recording',
  'security',
  'select-background',
  'settings',
  'shortcuts',
  'stats',
  'tileview',
  'whiteboard',
] as const;
export type ToolbarButton = (typeof TOOLBAR_BUTTONS)[number];

/** Keys the web app keeps in local storage (§3). */
export const STORAGE_KEYS = {
  authorization: 'authorization',
  user: 'user',
  preferences: 'preferences',
  profiles: 'profiles',
  actingProfile: 'acting_profile',
  guestId: 'guestId',
  /** The name a guest gave on /guest: the pre-join screen shows it (editable). */
  guestName: 'guestName',
  tokenValidationEmail: 'tokenValidationEmail',
  skipDeviceReview: 'skipDeviceReview',
  language: 'language',
  /** Share links this browser created (link id → address), so they stay copyable while they live. */
  shareLinks: 'shareLinks',
} as const;

/** Request header that carries the UI language to the server (mail templates). */
export const LANGUAGE_HEADER = 'accept-language';

/**
 * Single sign-on. Why a sign-in with the company's identity provider failed: the
 * `/login-error-sso?reason=` values, each with its own title and text on that page.
 */
export const SSO_ERROR_REASONS = [
  /** The provider could not be reached or answered with an error of its own. */
  'unavailable',
  /** The person cancelled or the provider refused the sign-in (OIDC access_denied, SAML status not Success). */
  'cancelled',
  /** The answer was malformed, unsigned, tampered with, for another client or audience, or its state did not match. */
  'invalid',
  /** The answer was used before (a replayed code or assertion) or the sign-in took too long. */
  'expired',
  /** The provider does not vouch for the address (email_verified false or missing). */
  'unverified',
  /** The address is not of the company domain that the connection belongs to. */
  'foreign',
  /** The account or its domain is deactivated. */
  'inactive',
  /** The domain has no single sign-on connection (any more). */
  'not-configured',
  /** The provider vouched for the address, but for another person than the one who signed in with it before. */
  'other-person',
  /** A first sign-in would make an account, and the domain's free plan has no seat left. */
  'no-seats',
  /** The provider's answer carried no e-mail address (no attribute or claim the connection maps). */
  'no-email',
  /** The provider refused our client (wrong client secret, unknown client, redirect URI not registered). */
  'misconfigured',
  /** The provider sent a sign-in we did not ask for (its app tile) and the connection does not allow it. */
  'idp-initiated',
] as const;
export type SsoErrorReason = (typeof SSO_ERROR_REASONS)[number];
/**
 * After `sso sp-key rotate`, the retired SAML service provider key still decrypts assertions for this
 * many days: IdPs reading our metadata URL take the new certificate within a day, those given the
 * metadata by hand keep encrypting to the old one until their admin uploads the new file.
 */
export const SSO_SP_KEY_OVERLAP_DAYS = 14;
/** An unsolicited (IdP-initiated) SAML response is taken only this soon after the IdP issued it. */
export const SSO_IDP_INITIATED_MAX_AGE_SECONDS = 120;
/** A sign-in started with a provider must come back within this time (state, nonce, SAML request). */
export const SSO_REQUEST_TTL_SECONDS = 600;
/** A SAML connection's metadata URL is read again this often (a rotated certificate is taken on its own). */
export const SSO_METADATA_REFRESH_MS = 24 * 3600_000;
/** A provider's signing certificate this close to its end is warned about (log, metric, `sso show`). */
export const SSO_CERTIFICATE_WARN_DAYS = 30;
/** The /auth hand-off token's lifetime: it is exchanged right after the redirect. */
export const HANDOFF_TTL_SECONDS = 60;
/**
 * The largest form a SAML IdP may post to the assertion consumer service: a signed response is a few
 * KiB; anything bigger is refused before it is decoded (it costs the server, not the sender).
 */
export const SAML_RESPONSE_MAX_BYTES = 64 * 1024;
/**
 * The shape a SAML response may have before it reaches the XML validator, whose XPath searches grow with
 * the square of the element count: a signed response with its attributes has some 30–80 elements and a
 * depth under 12; a few hundred group values still fit. More elements, or deeper nesting, is refused
 * by one linear pass over the text, as is any DOCTYPE (entity expansion).
 */
export const SAML_MAX_ELEMENTS = 400;
export const SAML_MAX_DEPTH = 32;
/** Clock skew allowed on SAML NotBefore/NotOnOrAfter and OIDC iat/exp. */
export const SSO_CLOCK_SKEW_SECONDS = 60;
/** How a session was signed in, as the sessions panel names it. */
export const SESSION_METHODS = ['password', 'sso', 'passkey', 'code', 'recovery'] as const;
export type SessionMethodName = (typeof SESSION_METHODS)[number];
/** A stored method as one of SESSION_METHODS; undefined for a value this version does not name. */
export const sessionMethodOf = (value: string | null | undefined): SessionMethodName | undefined =>
  (SESSION_METHODS as readonly (string | null | undefined)[]).includes(value)
    ? (value as SessionMethodName)
    : undefined;
