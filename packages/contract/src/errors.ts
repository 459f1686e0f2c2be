import { ADMIN_ERRORS } from './admin-errors.js';

/**
 * Error catalogue (spec §8). Every API error body is `{ error_code, message }`: `message` is the
 * spec's English catalogue text where the spec has one. The web app shows the localized text of
 * `errors.<CODE>` and falls back to `message`.
 */
export interface CatalogueEntry {
  status: number;
  message: string;
}

const entry = (status: number, message: string): CatalogueEntry => ({ status, message });

export const ERRORS = {
  // General
  ERR_VALIDATION: entry(400, 'Please, fill out all the required fields.'),
  ERR_REQUEST: entry(400, 'Request Error'),
  ERR_UNAUTHORIZED: entry(401, 'Your session has ended. Please sign in again.'),
  ERR_FORBIDDEN: entry(403, 'You are not allowed to do this.'),
  ERR_NOT_FOUND: entry(404, 'Not found.'),
  ERR_METHOD_NOT_ALLOWED: entry(405, 'This address does not accept this kind of request.'),
  ERR_PAYLOAD_TOO_LARGE: entry(413, 'The request is too large.'),
  ERR_URI_TOO_LONG: entry(414, 'The address is too long.'),
  ERR_UNSUPPORTED_MEDIA_TYPE: entry(415, 'This type of content is not accepted here.'),
  ERR_HEADERS_TOO_LARGE: entry(431, 'The request headers are too large.'),
  ERR_RATE_LIMITED: entry(429, 'Too many attempts. Please wait and try again.'),
  ERR_INTERNAL: entry(500, 'Unable to send information.'),
  ERR_SERVICE_UNAVAILABLE: entry(503, 'Could not connect to the server.'),
  ERR_CAPTCHA_FAILED: entry(400, 'Could not verify that you are not a robot. Please try again.'),
  ERR_CAPTCHA_REQUIRED: entry(400, 'Too many attempts for this address. Please confirm that you are not a robot.'),
  ERR_INVALID_NAME: entry(
    400,
    'Names may have up to 100 characters, without control or invisible formatting characters.',
  ),

  // Code check
  INVALID_TOKEN: entry(400, 'Invalid token'),
  ERR_MAX_TRIES_EXCEEDED: entry(400, 'Max number of tries exceeded.'),
  ERR_TOKEN_EXPIRED: entry(400, 'Expired token. A new one has sent.'),
  ERR_CODE_SENT_RECENTLY: entry(
    429,
    'A code was sent less than a minute ago. Use it, or ask for a new one when the minute is over.',
  ),
  ERR_OTHER: entry(400, 'Other error'),
  ERR_USER_ALREADY_CONFIRMED: entry(400, 'The user is already confirmed'),
  ERR_INVALID_ACCESS_TOKEN: entry(401, 'Invalid access token'),
  ERR_REGISTRATION_INCOMPLETE: entry(
    403,
    'Finish creating your account first: add your name and a password and accept the terms.',
  ),

  // Sign-up
  ERR_EMAIL_IN_USE: entry(400, 'Email address already in use!'),
  ERR_INVALID_EMAIL: entry(400, 'No valid email address was provided.'),
  ERR_PERSONAL_EMAIL_NOT_ALLOWED: entry(400, 'No personal email allowed address without invite!'),
  ERR_FREE_ACCOUNT_LIMIT: entry(400, 'Free account limit reached.'),
  ERR_DOMAIN_INACTIVE: entry(
    400,
    'New registrations are not possible for this domain. Please contact your domain administrator.',
  ),
  ERR_ZIMBRA_DOMAIN_SIGNUP_NOT_ALLOWED: entry(
    400,
    'Users of this domain use the mail server product and cannot sign up here.',
  ),
  ERR_USER_NOT_CONFIRMED_SIGNUP: entry(409, 'User already registered but not confirmed. A new code has been sent.'),

  // Teammates
  ERR_NO_SAME_DOMAIN_EMAIL: entry(400, 'No email address from the same domain was provided'),
  ERR_TEAMMATE_DOMAIN: entry(400, "The teammate's email address must have the same domain address."),
  ERR_INVALID_TEAMMATE_EMAIL: entry(400, 'Invalid email was provided'),
  ERR_NO_EMAIL_PROVIDED: entry(400, 'No email address provided'),
  ERR_ALL_EMAILS_REGISTERED: entry(409, 'All provided email addresses already register'),
  ERR_COULD_NOT_INVITE: entry(500, 'Could not invite teammates'),

  // Invitations
  ERR_INVITE_EXPIRED: entry(400, 'This invitation has expired.'),
  ERR_INVITE_LINK_OFF: entry(
    400,
    'This invitation link was turned off by the person who shared it. Ask them for a new one.',
  ),
  ERR_INVITE_ALREADY_ACCEPTED: entry(409, 'This invitation was already accepted.'),
  ERR_INVITE_INVALID: entry(400, 'This invitation is not valid.'),

  // Login
  ERR_INVALID_CREDENTIALS: entry(401, 'Invalid email or password.'),
  ERR_USER_NOT_CONFIRMED: entry(401, 'User not confirmed. Could not check login.'),
  ERR_USER_NOT_ACTIVE: entry(403, 'User is not active.'),
  ERR_DOMAIN_DISABLED: entry(403, 'Domain is disabled.'),
  ERR_SSO_LOGIN_ONLY: entry(403, 'Unable to log in with a password: this domain signs in with single sign-on.'),
  ERR_SSO_NOT_CONFIGURED: entry(404, 'Single sign-on is not set up for this address. Sign in with your password.'),
  ERR_HANDOFF_INVALID: entry(401, 'This sign-in link has expired or was already used. Please sign in again.'),
  ERR_COULD_NOT_AUTHENTICATE: entry(500, 'Could not authenticate'),
  ERR_COULD_NOT_GET_PROFILE: entry(500, 'Could not get user profile'),

  // Passkeys and two-step verification
  ERR_SECOND_STEP_INVALID: entry(
    400,
    'This code is not valid. Enter the current code from your authenticator app or a recovery code.',
  ),
  ERR_SECOND_STEP_EXPIRED: entry(
    401,
    'The time to enter the code has run out, or there were too many wrong codes. Please sign in again.',
  ),
  ERR_PASSKEY_FAILED: entry(400, 'The passkey could not be verified. Please try again.'),
  ERR_PASSKEY_UNKNOWN: entry(401, 'This passkey is not known here. Sign in with your password and add it again.'),
  ERR_PASSKEY_LIMIT: entry(400, 'You have reached the maximum number of passkeys. Remove one to add another.'),
  ERR_LAST_SIGN_IN_METHOD: entry(409, 'This is your only way to sign in, so it cannot be removed.'),
  ERR_TOTP_ALREADY_ON: entry(409, 'Two-step verification is already on.'),
  ERR_TOTP_NOT_ON: entry(409, 'Two-step verification is not on.'),
  ERR_TOTP_SSO: entry(403, 'Your organization signs you in with single sign-on, which handles two-step verification.'),
  ERR_PROOF_REQUIRED: entry(403, 'For your security, confirm it is you before changing how you sign in.'),
  ERR_SSO_ONLY_METHOD: entry(403, 'Your organization signs you in with single sign-on only. Use single sign-on.'),
  ERR_SECOND_FACTOR_REQUIRED: entry(
    400,
    'Enter the code from your authenticator app or a recovery code to choose a new password.',
  ),
  ERR_REVERT_INVALID: entry(400, 'This link has expired or was already used.'),
  ERR_TOTP_CODE_INVALID: entry(
    400,
    'This code is not valid. Enter the current six-digit code from your authenticator app.',
  ),

  // Recovery and passwords
  ERR_EMAIL_NOT_PROVIDED: entry(400, 'The email was not provided!'),
  ERR_USER_NOT_FOUND: entry(404, 'This user does not exist.'),
  ERR_COULD_NOT_RECOVER_PASSWORD: entry(500, 'Could not recover password'),
  ERR_COULD_NOT_UPDATE_PASSWORD: entry(500, 'Could not update password'),
  CONFIRM_PASSWORD_VALIDATION_FAILED: entry(400, 'Password and password confirmation do not match.'),
  USER_VALIDATION_FAILED: entry(400, 'User validation failed: password should have between 6 and 64 characters'),
  ERR_PASSWORD_TOO_SHORT: entry(400, 'Password must have at least 6 characters'),
  ERR_WRONG_CURRENT_PASSWORD: entry(400, 'The current password is not correct.'),
  ERR_PASSWORD_TOO_COMMON: entry(400, 'This password is too common. Please choose another one.'),
  ERR_PASSWORD_GUESSABLE: entry(
    400,
    'This password is too easy to guess from your address or our name. Please choose another one.',
  ),
  ACCEPT_TERMS: entry(400, 'You must accept the terms of use.'),

  // Guests
  ERR_GUEST_SAVE: entry(500, 'Could not save guest info'),

  // Meetings
  ERR_SESSION_NOT_STARTED: entry(401, 'The meeting has not started yet. Waiting for the host.'),
  ERR_INVITE_NOT_VALID: entry(400, 'Invite is not valid'),
  ERR_VIDEOCONFERENCE_NOT_FOUND: entry(404, 'Video conference not found.'),
  ERR_MEETINGS_NOT_CONFIGURED: entry(503, 'Meetings are not configured on this server.'),
  ERR_LOBBY_DENIED: entry(403, 'The host did not let you in.'),
  ERR_LOBBY_CLOSED: entry(403, 'The host did not let you in. You cannot ask again in this meeting.'),
  ERR_LOBBY_REQUEST_NOT_FOUND: entry(404, 'This person is no longer asking to join.'),
  ERR_MEETING_ACCESS_NOT_ALLOWED: entry(400, 'This access level is not allowed on this server.'),
  ERR_COHOST_NOT_ALLOWED: entry(400, 'Co-hosts must be signed-in people in your organization.'),
  ERR_INVITEE_LIMIT: entry(400, 'This meeting has reached the maximum number of invitees.'),

  // Files
  ERR_FILE_LINK_INVALID: entry(404, 'This download link is not valid.'),
  ERR_FILE_LINK_EXPIRED: entry(410, 'This download link has expired.'),
  ERR_FILE_LINK_PROCESSING_FAILED: entry(500, 'The download link could not be processed.'),
  ERR_FILE_DOWNLOAD_LINK_DEFAULT: entry(400, 'Could not download the file.'),
  ERR_FILE_TOO_LARGE: entry(413, 'The file is larger than the allowed size.'),
  ERR_STORAGE_QUOTA_EXCEEDED: entry(
    413,
    'Not enough storage space left for this file. Delete some files and try again.',
  ),
  ERR_STORAGE_UNAVAILABLE: entry(503, 'File storage is unavailable right now. Please try again in a moment.'),

  // The domain administrator's console
  ...ADMIN_ERRORS,
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERRORS;

export interface ApiErrorBody {
  error_code: ErrorCode | string;
  message: string;
  /** Field-level details for validation errors. */
  details?: { path: string; message: string }[];
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERRORS, code);
}
