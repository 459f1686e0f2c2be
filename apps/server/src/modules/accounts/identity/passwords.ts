import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, textLength } from '@suite/contract';
import { AppError } from '../../../errors.js';

/** OWASP's argon2id recommendation: 19 MiB, 2 passes, 1 lane. */
const ARGON2 = { algorithm: 2 as Algorithm /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** The zxcvbn-ts list of common passwords (~49k, server-side only), compared case-insensitively. */
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2);

/** Checked against a real hash for unknown users too, so their answer takes as long as a wrong password. */
const DUMMY_HASH = hash('dummy-password-for-timing', ARGON2);

/**
 * A password longer than any we accept cannot match: it is refused after a dummy verification of
 * the same cost, so the answer takes as long as for a wrong password. Lengths are code points, as
 * at registration (textLength), so a 64-emoji password set there also logs in.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored || textLength(password) > PASSWORD_MAX_LENGTH) {
    await verify(await DUMMY_HASH, password).catch(() => false);
    return false;
  }
  return verify(stored, password);
}

/** Length, confirmation and common-password rules of a new password, as catalogue errors. */
export function checkNewPassword(password: string, confirmation: string): void {
  const length = textLength(password);
  if (length < PASSWORD_MIN_LENGTH) throw new AppError('ERR_PASSWORD_TOO_SHORT');
  if (length > PASSWORD_MAX_LENGTH) throw new AppError('USER_VALIDATION_FAILED');
  if (password !== confirmation) throw new AppError('CONFIRM_PASSWORD_VALIDATION_FAILED');
  if (COMMON.has(password.toLowerCase())) throw new AppError('ERR_PASSWORD_TOO_COMMON');
}
