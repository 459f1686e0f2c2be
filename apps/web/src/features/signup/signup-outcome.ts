import { ApiError } from '../../lib/api-client';

/** What the sign-up screen does with a failed call (spec §8). */
export type SignupFailure =
  /** 409 other than an accepted invite: the address waits for its code, go to the code screen. */
  | { kind: 'code-screen' }
  /** A message for the e-mail field itself. */
  | { kind: 'field'; key: 'invalidEmail' | 'personalEmail' }
  /** The localized catalogue text of this error code (the errors namespace). */
  | { kind: 'error'; code: string };

const FIELD_CODES: Record<string, 'invalidEmail' | 'personalEmail'> = {
  ERR_INVALID_EMAIL: 'invalidEmail',
  ERR_PERSONAL_EMAIL_NOT_ALLOWED: 'personalEmail',
};

/**
 * 400/401 with an error_code → its matching text; 401 without one, or any other status → MSG_REQUEST_ERROR;
 * 409 (not an invite conflict) → the code screen. Connection problems and rate limits keep their own
 * texts: they tell the user what to do, which "Request Error" would not.
 */
export function signupFailure(error: unknown): SignupFailure {
  if (!(error instanceof ApiError)) return { kind: 'error', code: 'MSG_REQUEST_ERROR' };
  if (error.status === 0 || error.status === 429) return { kind: 'error', code: error.code };
  if (error.status === 409) {
    return error.code === 'ERR_INVITE_ALREADY_ACCEPTED' ? { kind: 'error', code: error.code } : { kind: 'code-screen' };
  }
  // The domain's sign-up rules (invitation only, an administrator's approval): their own texts, with "Ask for access".
  if (
    error.status === 403 &&
    (error.code === 'ERR_SIGNUP_INVITE_ONLY' || error.code === 'ERR_SIGNUP_APPROVAL_PENDING')
  ) {
    return { kind: 'error', code: error.code };
  }
  if ((error.status === 400 || error.status === 401) && error.code !== 'ERR_REQUEST') {
    const field = FIELD_CODES[error.code];
    return field ? { kind: 'field', key: field } : { kind: 'error', code: error.code };
  }
  return { kind: 'error', code: 'MSG_REQUEST_ERROR' };
}
