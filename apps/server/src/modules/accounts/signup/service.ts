import { emailDomain, normalizeEmail, type Language, type SessionResponse } from '@suite/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';
import { isPersonalAddress } from '../domains/free-mail.js';
import { isUniqueViolation } from '../../../db/dialect.js';
import { domainsRepository, type DomainRules } from '../domains/repository.js';
import { accessRequestsGate, domainSettingsRepository } from '../domains/settings.js';
import { allows, amrOf, assurance, isComplete, requireAllowed } from '../policy/index.js';
import { emailCodeMethod } from '../strategies/email-code/method.js';
import { totpOn } from '../strategies/totp/service.js';
import { invitesRepository } from '../invites/repository.js';
import { resolveSignupInvite, type SignupInvite } from '../invites/service.js';
import { addressOf, answerCode, checkCode, forgetCode, queueCode, sendCode, type CodeAsker } from '../codes/flow.js';
import type { AccountsDeps } from '../deps.js';
import { awaitsCodeStep, usersRepository, type NewUser, type UserRow } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';

/** Sign-up, its code confirmation and resend (spec §4: e-mail, code check, then the welcome step). */

export type SignupResult = { email: string; message: string } & Partial<SessionResponse>;

async function checkFreePlan(db: Kysely<Database>, domain: string, limit: number | null): Promise<void> {
  if (limit !== null && (await domainsRepository(db).confirmedUsers(domain)) >= limit) {
    throw new AppError('ERR_FREE_ACCOUNT_LIMIT');
  }
}

/**
 * The same check inside the confirming transaction, with the domain's row held: parallel
 * confirmations cannot both take the last free seat.
 */
async function claimFreeSeat(trx: Kysely<Database>, domain: string, limit: number | null) {
  if (limit === null) return;
  await domainsRepository(trx).lock(domain);
  await checkFreePlan(trx, domain, limit);
}

/**
 * The domain's sign-up mode (its administrators set it in the console): an invitation, or an
 * administrator's approval of this address, lets a person of an 'invite' or 'approval' domain in. On an
 * approval domain the refusal files the request itself (the administrators are mailed by the console's
 * notifier), within the same per-address limit as "Ask for access". Answers the approval that admits
 * the sign-up (spent when the account is made), if one does.
 */
async function checkSignupMode(
  deps: AccountsDeps,
  email: string,
  domain: string,
  admitted: boolean,
  language: Language,
): Promise<string | undefined> {
  const { signupMode } = await domainSettingsRepository(deps.db).get(domain);
  if (signupMode === 'open' || admitted) return undefined;
  const gate = accessRequestsGate(deps.db);
  const approval = await gate.approval(email, signupMode);
  if (approval) return approval;
  if (signupMode === 'invite') throw new AppError('ERR_SIGNUP_INVITE_ONLY');
  await gate.open({ email, domain, reason: 'approval', message: null, language });
  throw new AppError('ERR_SIGNUP_APPROVAL_PENDING');
}

/** A personal address (free mail, address literal) gets a PERSONAL profile, any other a PROFESSIONAL one. */
const newUser = (
  email: string,
  personal: boolean,
  language: Language,
  confirmed: boolean,
  invitedBy: string | null,
): NewUser => ({
  email,
  domain: emailDomain(email),
  language,
  profileType: personal ? 'PERSONAL' : 'PROFESSIONAL',
  confirmed,
  invitedBy,
});

export async function signup(
  deps: AccountsDeps,
  input: { email: string; invite_token?: string | undefined },
  language: Language,
  asker: CodeAsker,
): Promise<SignupResult> {
  const email = addressOf(input.email);
  const domain = emailDomain(email);
  const invite = input.invite_token ? await resolveSignupInvite(deps, input.invite_token, email) : null;
  const personal = await isPersonalAddress(domain);
  if (invite?.kind === 'mismatch' && !personal) throw new AppError('ERR_INVITE_INVALID');
  const granted = invite?.kind === 'mismatch' ? null : invite;
  if (!deps.config.publicSignup && !granted) throw new AppError('ERR_FORBIDDEN');

  const rules = await domainsRepository(deps.db).rules(domain);
  if (!rules.active) throw new AppError('ERR_DOMAIN_INACTIVE');
  if (rules.mailServerHosted) throw new AppError('ERR_ZIMBRA_DOMAIN_SIGNUP_NOT_ALLOWED');
  if (rules.ssoOnly) throw new AppError('ERR_SSO_LOGIN_ONLY');

  const existing = await usersRepository(deps.db).byEmail(email);
  // An account waiting for its code step was admitted already (a personal one through its invite).
  const waiting = existing !== undefined && awaitsCodeStep(existing);
  if (personal && granted?.kind !== 'address' && !waiting) throw new AppError('ERR_PERSONAL_EMAIL_NOT_ALLOWED');
  if (existing && !waiting) {
    throw new AppError(granted?.kind === 'address' ? 'ERR_INVITE_ALREADY_ACCEPTED' : 'ERR_EMAIL_IN_USE');
  }
  const approval = await checkSignupMode(deps, email, domain, Boolean(granted) || waiting, language);
  if (granted?.kind === 'address')
    return acceptAddressInvite(deps, email, granted, existing, personal, rules.freePlanLimit, language);
  if (existing) {
    await sendCode(deps, email, 'confirm', language, asker);
    throw new AppError('ERR_USER_NOT_CONFIRMED_SIGNUP');
  }
  await checkFreePlan(deps.db, domain, rules.freePlanLimit);
  try {
    await deps.db.transaction().execute(async (trx) => {
      // Spent with the account it admits: a parallel sign-up that lost the approval gets the same answer
      // as one without.
      if (approval && !(await accessRequestsGate(trx).use(approval))) throw new AppError('ERR_SIGNUP_APPROVAL_PENDING');
      await usersRepository(trx).create(newUser(email, personal, language, false, granted?.inviterId ?? null));
      // A resend asked for this address before it had an account stored a code never mailed: its minute
      // of spacing must not hold back the account's first code.
      await forgetCode(trx, email, 'confirm');
      await queueCode(deps, trx, { email, purpose: 'confirm', language, mail: true, asker });
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
  if (!existing?.confirmed_at) await checkFreePlan(deps.db, domain, limit);
  // Accepting the invite and the session commit together: a failure between them leaves the invite usable.
  const session = await deps.db.transaction().execute(async (trx) => {
    if (!(await invitesRepository(trx).accept(invite.jtiHash))) return null;
    const users = usersRepository(trx);
    let userId = existing?.id;
    if (userId) await users.markConfirmed(userId);
    else userId = await users.create(newUser(email, personal, language, true, invite.inviterId));
    const user = await users.byId(userId);
    if (!user) throw new AppError('ERR_COULD_NOT_GET_PROFILE');
    return sessionFor(deps, user, { db: trx });
  });
  if (!session) {
    const row = await invitesRepository(deps.db).find(invite.jtiHash);
    throw new AppError(row?.accepted_at ? 'ERR_INVITE_ALREADY_ACCEPTED' : 'ERR_INVITE_EXPIRED');
  }
  return { email, message: 'Invitation accepted.', ...session };
}

/**
 * The e-mailed code as a sign-in: the policy decides (refused on an `--sso-only` domain, whose people
 * sign in at their provider; an account with a second factor never gets a session from a mailbox
 * alone). Before anything is sent or checked.
 */
async function codeSignInAllowed(deps: AccountsDeps, user: UserRow, rules: DomainRules): Promise<void> {
  requireAllowed(user, rules, emailCodeMethod);
  if (!isComplete({ active: user.active, secondFactor: await totpOn(deps, user.id) }, [emailCodeMethod])) {
    throw new AppError('ERR_USER_ALREADY_CONFIRMED');
  }
}

export async function confirm(
  deps: AccountsDeps,
  input: { token: string; email: string },
  language: Language,
  asker: CodeAsker,
): Promise<SessionResponse> {
  const email = normalizeEmail(input.email);
  const user = await usersRepository(deps.db).byEmail(email);
  if (!user) throw new AppError('INVALID_TOKEN');
  if (!awaitsCodeStep(user)) throw new AppError('ERR_USER_ALREADY_CONFIRMED');
  const rules = await domainsRepository(deps.db).rules(user.domain);
  await codeSignInAllowed(deps, user, rules);
  // A confirmed account waiting to finish registering is counted in the plan already.
  const limit = user.confirmed_at ? null : rules.freePlanLimit;
  // A full plan answers before the code is tried (no try spent on it).
  await checkFreePlan(deps.db, user.domain, limit);
  // Counting, consuming and confirming commit together; a wrong guess still commits its count, and a
  // seat taken meanwhile rolls the whole confirmation back (the code stays usable).
  // The session is written in the same transaction: a failure before the commit leaves the code usable.
  const { outcome, session } = await deps.db.transaction().execute(async (trx) => {
    const result = await checkCode(deps, trx, email, 'confirm', input.token);
    if (result.kind !== 'ok') return { outcome: result, session: null };
    await claimFreeSeat(trx, user.domain, limit);
    await usersRepository(trx).markConfirmed(user.id);
    const confirmedUser = { ...user, confirmed_at: user.confirmed_at ?? Date.now() };
    const session = await sessionFor(deps, confirmedUser, {
      db: trx,
      method: emailCodeMethod.session,
      amr: amrOf([emailCodeMethod]),
      aal: assurance([emailCodeMethod]),
    });
    return { outcome: result, session };
  });
  await answerCode(deps, outcome, email, 'confirm', language, true, asker);
  if (!session) throw new AppError('INVALID_TOKEN');
  return session;
}

export async function resendConfirmation(
  deps: AccountsDeps,
  rawEmail: string,
  language: Language,
  asker: CodeAsker,
): Promise<{ message: string }> {
  const email = addressOf(rawEmail);
  // Where sign-up itself is refused, so is its code (a domain rule: it says nothing about the address).
  const rules = await domainsRepository(deps.db).rules(emailDomain(email));
  if (!allows(rules, emailCodeMethod)) throw new AppError('ERR_SSO_LOGIN_ONLY');
  const user = await usersRepository(deps.db).byEmail(email);
  if (user && !awaitsCodeStep(user)) throw new AppError('ERR_USER_ALREADY_CONFIRMED');
  // Unknown address: same answer, nothing sent; a code that is never mailed is stored all the same, so
  // that a second ask inside the minute is refused alike for both.
  await sendCode(deps, email, 'confirm', language, asker, Boolean(user), true);
  return { message: 'A new code has been sent.' };
}
