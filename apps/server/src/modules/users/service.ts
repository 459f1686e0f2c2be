import {
  ACCEPTED_TERMS_VERSION,
  emailDomain,
  isEmailShape,
  normalizeEmail,
  type CodePurpose,
  type Language,
  type MeResponse,
  type SessionResponse,
} from '@suite/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../plugins/auth.js';
import { isFreeMail } from '../domains/free-mail.js';
import { confirmedUsersOf, domainRules } from '../domains/repository.js';
import { acceptInvite, findInvite } from '../invites/repository.js';
import { resolveSignupInvite, type SignupInvite } from '../invites/service.js';
import { checkCode, issueCode, type CodeKeys, type CodeOutcome } from './codes.js';
import type { AccountsDeps } from './deps.js';
import { checkNewPassword, hashPassword } from './passwords.js';
import {
  completeRegistration,
  createUser,
  findUserByEmail,
  findUserById,
  isUniqueViolation,
  markConfirmed,
  profilesOf,
  setPassword,
  type UserRow,
} from './repository.js';
import { issuedAfter, sessionFor } from './session.js';

export type SignupResult = { email: string; message: string } & Partial<SessionResponse>;

const codeKeys = (deps: AccountsDeps): CodeKeys => ({
  secret: deps.config.sessionSecret,
  scale: deps.config.rateLimitScale,
});

/** A well-formed address, normalised, or ERR_INVALID_EMAIL. A fully-qualified domain's trailing dot is dropped. */
export function addressOf(raw: string): string {
  const trimmed = raw.trim().replace(/\.+$/, '');
  if (!trimmed || !isEmailShape(trimmed)) throw new AppError('ERR_INVALID_EMAIL');
  return normalizeEmail(trimmed);
}

/** Stores a new code and queues its mail in one transaction, then wakes the mail worker. */
async function sendCode(
  deps: AccountsDeps,
  email: string,
  purpose: CodePurpose,
  language: Language,
  mail = true,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const code = await issueCode(trx, codeKeys(deps), email, purpose);
    if (code && mail)
      await deps.mailer.queue(trx, {
        kind: purpose === 'confirm' ? 'confirm-code' : 'recovery-code',
        to: email,
        language,
        code,
      });
  });
  if (mail) deps.mailer.kick();
}

async function checkFreePlan(db: Kysely<Database>, domain: string, limit: number | null): Promise<void> {
  if (limit !== null && (await confirmedUsersOf(db, domain)) >= limit) throw new AppError('ERR_FREE_ACCOUNT_LIMIT');
}

export async function signup(
  deps: AccountsDeps,
  input: { email: string; invite_token?: string | undefined },
  language: Language,
): Promise<SignupResult> {
  const email = addressOf(input.email);
  const domain = emailDomain(email);
  const invite = input.invite_token ? await resolveSignupInvite(deps, input.invite_token, email) : null;
  const personal = isFreeMail(domain);
  if (invite?.kind === 'mismatch' && !personal) throw new AppError('ERR_INVITE_INVALID');
  const granted = invite?.kind === 'mismatch' ? null : invite;
  if (!deps.config.publicSignup && !granted) throw new AppError('ERR_FORBIDDEN');

  const rules = await domainRules(deps.db, domain);
  if (!rules.active) throw new AppError('ERR_DOMAIN_INACTIVE');
  if (rules.mailServerHosted) throw new AppError('ERR_ZIMBRA_DOMAIN_SIGNUP_NOT_ALLOWED');
  if (rules.ssoOnly) throw new AppError('ERR_SSO_LOGIN_ONLY');
  if (personal && granted?.kind !== 'address') throw new AppError('ERR_PERSONAL_EMAIL_NOT_ALLOWED');

  const existing = await findUserByEmail(deps.db, email);
  if (existing?.confirmed_at) {
    throw new AppError(granted?.kind === 'address' ? 'ERR_INVITE_ALREADY_ACCEPTED' : 'ERR_EMAIL_IN_USE');
  }
  if (granted?.kind === 'address')
    return acceptAddressInvite(deps, email, granted, existing, personal, rules.freePlanLimit, language);
  if (existing) {
    await sendCode(deps, email, 'confirm', language);
    throw new AppError('ERR_USER_NOT_CONFIRMED_SIGNUP');
  }
  await checkFreePlan(deps.db, domain, rules.freePlanLimit);
  try {
    await deps.db.transaction().execute(async (trx) => {
      const profileType = personal ? 'PERSONAL' : 'PROFESSIONAL';
      await createUser(trx, {
        email,
        domain,
        language,
        profileType,
        confirmed: false,
        invitedBy: granted?.inviterId ?? null,
      });
      const code = await issueCode(trx, codeKeys(deps), email, 'confirm');
      if (code) await deps.mailer.queue(trx, { kind: 'confirm-code', to: email, language, code });
    });
  } catch (error) {
    // Two sign-ups of one address at once: the loser is told what the winner's code step says.
    if (isUniqueViolation(error)) throw new AppError('ERR_USER_NOT_CONFIRMED_SIGNUP');
    throw error;
  }
  deps.mailer.kick();
  return { email, message: 'A confirmation code has been sent.' };
}

/**
 * The invite link reached this mailbox, which proves the address as a code would: the account is
 * created (or the pending one confirmed) at once, and a session comes back so the invitee can go
 * straight to the welcome step. The invite is marked accepted in the same transaction, once.
 */
async function acceptAddressInvite(
  deps: AccountsDeps,
  email: string,
  invite: Extract<SignupInvite, { kind: 'address' }>,
  existing: UserRow | undefined,
  personal: boolean,
  limit: number | null,
  language: Language,
): Promise<SignupResult> {
  const domain = emailDomain(email);
  await checkFreePlan(deps.db, domain, limit);
  const userId = await deps.db.transaction().execute(async (trx) => {
    if (!(await acceptInvite(trx, invite.jtiHash))) return null;
    if (existing) {
      await markConfirmed(trx, existing.id);
      return existing.id;
    }
    const profileType = personal ? 'PERSONAL' : 'PROFESSIONAL';
    return createUser(trx, { email, domain, language, profileType, confirmed: true, invitedBy: invite.inviterId });
  });
  if (!userId) {
    const row = await findInvite(deps.db, invite.jtiHash);
    throw new AppError(row?.accepted_at ? 'ERR_INVITE_ALREADY_ACCEPTED' : 'ERR_INVITE_EXPIRED');
  }
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError('ERR_COULD_NOT_GET_PROFILE');
  return { email, message: 'Invitation accepted.', ...(await sessionFor(deps, user)) };
}

/** Turns a code check outcome into the catalogue answer; an expired code triggers one new mail. */
async function answerCode(
  deps: AccountsDeps,
  outcome: CodeOutcome,
  email: string,
  purpose: CodePurpose,
  language: Language,
  mail: boolean,
): Promise<void> {
  if (outcome.kind === 'ok') return;
  if (outcome.kind === 'invalid') throw new AppError('INVALID_TOKEN');
  if (outcome.kind === 'max_tries') throw new AppError('ERR_MAX_TRIES_EXCEEDED');
  await deps.db.transaction().execute(async (trx) => {
    const code = await issueCode(trx, codeKeys(deps), email, purpose, outcome.hash);
    const kind = purpose === 'confirm' ? 'confirm-code' : 'recovery-code';
    if (code && mail) await deps.mailer.queue(trx, { kind, to: email, language, code });
  });
  deps.mailer.kick();
  throw new AppError('ERR_TOKEN_EXPIRED');
}

export async function confirm(
  deps: AccountsDeps,
  input: { token: string; email: string },
  language: Language,
): Promise<SessionResponse> {
  const email = normalizeEmail(input.email);
  const user = await findUserByEmail(deps.db, email);
  if (!user) throw new AppError('INVALID_TOKEN');
  if (user.confirmed_at) throw new AppError('ERR_USER_ALREADY_CONFIRMED');
  await checkFreePlan(deps.db, user.domain, (await domainRules(deps.db, user.domain)).freePlanLimit);
  // Counting, consuming and confirming commit together; a wrong guess still commits its count.
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const result = await checkCode(trx, codeKeys(deps), email, 'confirm', input.token);
    if (result.kind === 'ok') await markConfirmed(trx, user.id);
    return result;
  });
  await answerCode(deps, outcome, email, 'confirm', language, true);
  return sessionFor(deps, { ...user, confirmed_at: Date.now() });
}

export async function resendConfirmation(
  deps: AccountsDeps,
  rawEmail: string,
  language: Language,
): Promise<{ message: string }> {
  const email = addressOf(rawEmail);
  const user = await findUserByEmail(deps.db, email);
  if (user?.confirmed_at) throw new AppError('ERR_USER_ALREADY_CONFIRMED');
  // Unknown address: same answer, nothing sent.
  if (user) await sendCode(deps, email, 'confirm', language);
  return { message: 'A new code has been sent.' };
}

/** Names end up in mail headers and pages: no control characters, single spaces. */
const cleanName = (value: string) =>
  value
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export async function completeRegister(
  deps: AccountsDeps,
  session: SessionUser,
  input: {
    first_name: string;
    last_name: string;
    password: string;
    password_confirmation: string;
    accepted_terms?: unknown;
  },
): Promise<SessionResponse> {
  if (!cleanName(input.first_name) || !cleanName(input.last_name)) throw new AppError('ERR_VALIDATION');
  const terms = input.accepted_terms as { version?: unknown } | undefined;
  if (terms?.version !== ACCEPTED_TERMS_VERSION) throw new AppError('ACCEPT_TERMS');
  checkNewPassword(input.password, input.password_confirmation);
  const user = await findUserById(deps.db, session.id);
  if (!user?.confirmed_at || user.registered_at) throw new AppError('ERR_FORBIDDEN');
  const passwordHash = await hashPassword(input.password);
  const done = await completeRegistration(deps.db, user.id, {
    firstName: cleanName(input.first_name),
    lastName: cleanName(input.last_name),
    passwordHash,
    termsVersion: ACCEPTED_TERMS_VERSION,
  });
  if (!done) throw new AppError('ERR_FORBIDDEN');
  return sessionFor(deps, user);
}

/** New password for the signed-in user; every other session ends, the returned one stays valid. */
export async function updatePassword(
  deps: AccountsDeps,
  session: SessionUser,
  id: string,
  input: { password: string; password_confirmation: string },
): Promise<SessionResponse> {
  if (id !== session.id) throw new AppError('ERR_FORBIDDEN');
  checkNewPassword(input.password, input.password_confirmation);
  const user = await findUserById(deps.db, id);
  if (!user) throw new AppError('ERR_FORBIDDEN');
  const now = Date.now();
  await setPassword(deps.db, id, await hashPassword(input.password), now);
  return sessionFor(deps, user, issuedAfter(now));
}

/**
 * Always 200 with the same body: whether the address has an account is not revealed. A code row is
 * stored for unknown addresses too (never mailed), so the code step answers alike for both.
 */
export async function forgotPassword(
  deps: AccountsDeps,
  rawEmail: string,
  language: Language,
): Promise<{ message: string }> {
  if (!rawEmail.trim()) throw new AppError('ERR_EMAIL_NOT_PROVIDED');
  const email = addressOf(rawEmail);
  await sendCode(deps, email, 'recovery', language, await canRecover(deps, email));
  return { message: 'If the address has an account, a recovery code has been sent.' };
}

async function canRecover(deps: AccountsDeps, email: string): Promise<boolean> {
  const user = await findUserByEmail(deps.db, email);
  if (!user?.confirmed_at || !user.active) return false;
  const rules = await domainRules(deps.db, user.domain);
  return rules.active && !rules.ssoOnly;
}

export async function forgotPasswordConfirm(
  deps: AccountsDeps,
  input: { token: string; email: string },
  language: Language,
): Promise<SessionResponse> {
  const email = normalizeEmail(input.email);
  const outcome = await deps.db
    .transaction()
    .execute((trx) => checkCode(trx, codeKeys(deps), email, 'recovery', input.token));
  await answerCode(deps, outcome, email, 'recovery', language, await canRecover(deps, email));
  const user = await findUserByEmail(deps.db, email);
  if (!user?.confirmed_at) throw new AppError('INVALID_TOKEN');
  return sessionFor(deps, user);
}

export async function me(deps: AccountsDeps, session: SessionUser): Promise<MeResponse> {
  const user = await findUserById(deps.db, session.id);
  if (!user) throw new AppError('ERR_INVALID_ACCESS_TOKEN');
  return {
    _id: user.id,
    email: user.email,
    confirmed: user.confirmed_at !== null,
    registered: user.registered_at !== null,
    profiles: await profilesOf(deps.db, user),
  };
}
