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
