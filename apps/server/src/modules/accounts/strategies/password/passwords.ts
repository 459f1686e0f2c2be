import { availableParallelism } from 'node:os';
import type { Algorithm } from '@node-rs/argon2';
import pLimit from 'p-limit';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, textLength } from '@suite/contract';
import { AppError } from '../../../../errors.js';

/** OWASP's argon2id recommendation: 19 MiB, 2 passes, 1 lane. */
const ARGON2 = { algorithm: 2 as Algorithm /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

let common: Promise<Set<string>> | undefined;
/**
 * The zxcvbn-ts list of common passwords (~49k, server-side only), compared case-insensitively.
 * Loaded with the first new password, not at start (it is the largest data the server holds).
 */
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  ));

let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
/** The argon2 binding (a native addon), loaded with the first password hashed or checked, not at start. */
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/**
 * At most one argon2 computation per core at a time; the others wait their turn. Each takes 19 MiB
 * for its run: a burst of logins cannot take memory without bound, the hashes in flight do not evict
 * each other from the CPU caches (more logins a second on a busy core, not fewer), and the libuv
 * threads stay free for file and DNS work. Known and unknown addresses queue alike (the dummy hash
 * goes through here too), so the wait says nothing about an account.
 */
const hashing = pLimit(Math.max(1, availableParallelism()));

export const hashPassword = async (password: string): Promise<string> => {
  const { hash } = await loadArgon2();
  return hashing(() => hash(password, ARGON2));
};

/** base64 without padding, as in a PHC string. */
const phc64 = (bytes: string) => Buffer.from(bytes).toString('base64').replace(/=+$/, '');
/**
 * Checked against for unknown users too, so their answer takes as long as a wrong password: a hash of
 * the same parameters (the cost is all that matters; its salt and digest match no password), written
 * here rather than hashed at start.
 */
const DUMMY_HASH = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$${phc64('suite-dummy-salt')}$${phc64('\0'.repeat(32))}`;

/**
 * A password longer than any we accept cannot match: it is refused after a dummy verification of
 * the same cost, so the answer takes as long as for a wrong password. Lengths are code points, as
 * at registration (textLength), so a 64-emoji password set there also logs in.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  if (!stored || textLength(password) > PASSWORD_MAX_LENGTH) {
    await hashing(() => verify(DUMMY_HASH, password)).catch(() => false);
    return false;
  }
  return hashing(() => verify(stored, password));
}

/** Where a new password is set: the words of this context are the first an attacker tries. */
export interface PasswordContext {
  email: string;
  appTitle: string;
}

/** Context words shorter than this are too common inside other words to refuse on. */
const CONTEXT_WORD_MIN = 3;
/** A context word with at most four characters added ("acme2024", "ada!!") is refused. */
const CONTEXT_SLACK = 5;

/**
 * The context-specific words of ASVS 6.1.2 (documented in docs/security.md): the product's name, the
 * address, its local part, its domain and the domain's first label. A password that is one of them
 * with a few characters added is guessed early by anyone who knows whose account it is.
 */
function isContextual(password: string, context: PasswordContext): boolean {
  const [local = '', domain = ''] = context.email.toLowerCase().split('@');
  const words = [
    context.appTitle.toLowerCase(),
    context.email.toLowerCase(),
    local,
    domain,
    domain.split('.')[0] ?? '',
  ];
  const typed = password.toLowerCase();
  return words.some(
    (word) => word.length >= CONTEXT_WORD_MIN && typed.includes(word) && typed.length - word.length < CONTEXT_SLACK,
  );
}

/** Length, confirmation, common-password and context-word rules of a new password, as catalogue errors. */
export async function checkNewPassword(
  password: string,
  confirmation: string,
  context: PasswordContext,
): Promise<void> {
  const length = textLength(password);
  if (length < PASSWORD_MIN_LENGTH) throw new AppError('ERR_PASSWORD_TOO_SHORT');
  if (length > PASSWORD_MAX_LENGTH) throw new AppError('USER_VALIDATION_FAILED');
  if (password !== confirmation) throw new AppError('CONFIRM_PASSWORD_VALIDATION_FAILED');
  if ((await commonPasswords()).has(password.toLowerCase())) throw new AppError('ERR_PASSWORD_TOO_COMMON');
  if (isContextual(password, context)) throw new AppError('ERR_PASSWORD_GUESSABLE');
}
