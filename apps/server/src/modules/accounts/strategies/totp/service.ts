import {
  RECOVERY_CODE_PATTERN,
  SECOND_STEP_MAX_TRIES,
  SECOND_STEP_TTL_MS,
  emailDomain,
  normalizeEmail,
  type Language,
  type RecoveryCodesResponse,
  type SecondStepRequired,
  type TotpSetupResponse,
} from '@suite/contract';
import { AppError } from '../../../../errors.js';
import { seal, unseal } from '../../../../keys.js';
import type { SessionUser } from '../../../../plugins/auth.js';
import { flowState, newStateValue } from '../../state/repository.js';
import { holderOf, noteFactorChange } from '../../identity/factor-changes.js';
import { allows, requireFreshProof } from '../../policy/index.js';
import type { AccountsDeps } from '../../deps.js';
import { domainsRepository } from '../../domains/repository.js';
import { verifyPassword } from '../password/passwords.js';
import { usersRepository, type UserRow } from '../../identity/repository.js';
import { trustBrowser } from '../../identity/trusted-browser.js';
import type { MethodDeclaration } from '../method.js';
import { passwordMethod } from '../password/method.js';
import { recoveryCodeMethod } from '../recovery-code/method.js';
import { totpMethod } from './method.js';
import { totpRepository } from './repository.js';
import {
  codeStep,
  hashRecoveryCode,
  newRecoveryCodes,
  newSecret,
  normalizeRecoveryCode,
  otpauthUri,
  qrSvg,
} from './secrets.js';

/**
 * Two-step verification with an authenticator app (RFC 6238) and recovery codes: enrolment from the
 * Security panel, and the code step of a password sign-in (`startSecondStep` hands out a pending token
 * instead of a session; `answerSecondStep` trades it and one code for the user).
 */

async function accountOf(deps: AccountsDeps, session: SessionUser): Promise<UserRow> {
  const user = await usersRepository(deps.db).byId(session.id);
  if (!user) throw new AppError('ERR_UNAUTHORIZED');
  return user;
}

/** The app secret, or null when no key of the ring opens it (SESSION_SECRET changed without its previous one). */
export function openSecret(deps: AccountsDeps, sealed: string): string | null {
  try {
    return unseal(deps.config.keys.totp, sealed).plain;
  } catch {
    return null;
  }
}

/**
 * A fresh proof at the level the account signs in with: on an account with an authenticator app the
 * session must stand at AAL2 too, so a phished password or a trusted browser's AAL1 sign-in (which
 * proved no second factor) cannot make a change that matters (a passkey, another person's account).
 */
export async function requireFreshProofAtAccountLevel(
  db: AccountsDeps['db'],
  session: Pick<SessionUser, 'id' | 'provedAt' | 'aal'>,
): Promise<void> {
  requireFreshProof(session); // a stale session is refused before any query
  requireFreshProof(session, { secondFactor: await totpRepository(db).isOn(session.id) });
}

/** Single-sign-on accounts do not get it: their provider does two-step verification. */
async function totpAvailable(deps: AccountsDeps, user: UserRow): Promise<boolean> {
  return allows(await domainsRepository(deps.db).rules(emailDomain(user.email)), totpMethod);
}

export async function startEnrolment(deps: AccountsDeps, session: SessionUser): Promise<TotpSetupResponse> {
  requireFreshProof(session);
  const user = await accountOf(deps, session);
  if (!(await totpAvailable(deps, user))) throw new AppError('ERR_TOTP_SSO');
  const secret = await newSecret();
  if (!(await totpRepository(deps.db).startEnrolment(user.id, seal(deps.config.keys.totp, secret)))) {
    throw new AppError('ERR_TOTP_ALREADY_ON');
  }
  const uri = await otpauthUri(secret, user.email, deps.config.appTitle);
  return { secret, uri, qr_svg: await qrSvg(uri) };
}

/** Queues the recovery codes' hashes; returns the codes (shown once). */
export async function issueRecoveryCodes(
  deps: AccountsDeps,
  db: AccountsDeps['db'],
  userId: string,
): Promise<string[]> {
  const codes = newRecoveryCodes();
  await totpRepository(db).replaceRecoveryCodes(
    userId,
    codes.map((code) => hashRecoveryCode(deps.config.keys.code.sign, userId, code)),
  );
  return codes;
}

/** The first code confirms the app has the secret: two-step verification is on, 10 recovery codes out. */
export async function confirmEnrolment(
  deps: AccountsDeps,
  session: SessionUser,
  input: { code: string; language?: Language | undefined },
): Promise<RecoveryCodesResponse> {
  requireFreshProof(session);
  const user = await accountOf(deps, session);
  const repo = totpRepository(deps.db);
  const factor = await repo.factor(user.id);
  if (!factor) throw new AppError('ERR_TOTP_NOT_ON');
  if (factor.enabled_at !== null) throw new AppError('ERR_TOTP_ALREADY_ON');
  const secret = openSecret(deps, factor.secret_enc);
  const step = secret ? await codeStep(secret, input.code) : null;
  if (step === null) throw new AppError('ERR_TOTP_CODE_INVALID');
  const codes = await deps.db.transaction().execute(async (trx) => {
    if (!(await totpRepository(trx).useStep(user.id, step, true))) throw new AppError('ERR_TOTP_CODE_INVALID');
    const issued = await issueRecoveryCodes(deps, trx, user.id);
    await noteFactorChange(trx, deps.mailer, holderOf(user, input.language), { kind: 'totp-on' }, session.sessionId);
    return issued;
  });
  deps.mailer.kick();
  return { recovery_codes: codes };
}

/**
 * One second-factor code for an account that has it on: a current app code (its time step not used
 * before) or an unused recovery code. Either is spent by this call. Returns which one proved it.
 */
export async function useSecondFactor(
  deps: AccountsDeps,
  userId: string,
  code: string,
): Promise<MethodDeclaration | null> {
  const repo = totpRepository(deps.db);
  const typed = code.trim();
  if (/^\d{6}$/.test(typed)) {
    const factor = await repo.factor(userId);
    if (!factor || factor.enabled_at === null) return null;
    const secret = openSecret(deps, factor.secret_enc);
    const step = secret ? await codeStep(secret, typed) : null;
    return step !== null && (await repo.useStep(userId, step)) ? totpMethod : null;
  }
  if (!RECOVERY_CODE_PATTERN.test(typed.toLowerCase())) return null;
  const normalized = normalizeRecoveryCode(typed);
  const hashes = deps.config.keys.code.verify.map((key) => hashRecoveryCode(key, userId, normalized));
  return (await repo.useRecoveryCode(userId, hashes)) ? recoveryCodeMethod : null;
}

/**
 * Turning it off takes the password and a code (app or recovery): a fresh proof of both factors in
 * the request itself, so it needs no earlier one.
 */
export async function disable(
  deps: AccountsDeps,
  session: SessionUser,
  input: { password: string; code: string; language?: Language | undefined },
): Promise<{ ok: true }> {
  const user = await accountOf(deps, session);
  if (!(await verifyPassword(user.password_hash, input.password))) throw new AppError('ERR_WRONG_CURRENT_PASSWORD');
  if (!(await totpRepository(deps.db).isOn(user.id))) throw new AppError('ERR_TOTP_NOT_ON');
  if (!(await useSecondFactor(deps, user.id, input.code))) throw new AppError('ERR_TOTP_CODE_INVALID');
  await deps.db.transaction().execute(async (trx) => {
    await totpRepository(trx).remove(user.id);
    await noteFactorChange(trx, deps.mailer, holderOf(user, input.language), { kind: 'totp-off' }, session.sessionId);
  });
  deps.mailer.kick();
  return { ok: true };
}

/** A new set of recovery codes (the old ones stop working), with a current app code. */
export async function replaceRecoveryCodes(
  deps: AccountsDeps,
  session: SessionUser,
  input: { code: string; language?: Language | undefined },
): Promise<RecoveryCodesResponse> {
  requireFreshProof(session);
  const user = await accountOf(deps, session);
  if (!(await totpRepository(deps.db).isOn(user.id))) throw new AppError('ERR_TOTP_NOT_ON');
  if (!/^\d{6}$/.test(input.code) || !(await useSecondFactor(deps, user.id, input.code))) {
    throw new AppError('ERR_TOTP_CODE_INVALID');
  }
  const codes = await deps.db.transaction().execute(async (trx) => {
    const issued = await issueRecoveryCodes(deps, trx, user.id);
    const change = { kind: 'recovery-codes-new' as const };
    await noteFactorChange(trx, deps.mailer, holderOf(user, input.language), change, session.sessionId);
    return issued;
  });
  deps.mailer.kick();
  return { recovery_codes: codes };
}

export const totpOn = (deps: AccountsDeps, userId: string) => totpRepository(deps.db).isOn(userId);
export const recoveryCodesLeft = (deps: AccountsDeps, userId: string) =>
  totpRepository(deps.db).recoveryCodesLeft(userId);

/**
 * After a first factor: no session yet, a short-lived single-use pending token (stored hashed) that
 * remembers what was proved (the methods' declarations), so the session the code step ends in
 * records both, and the account's credential generation then: a password change or "sign out of all
 * devices" moves it, and the pending step of the old password ends with them.
 */
export async function startSecondStep(
  deps: AccountsDeps,
  user: UserRow,
  proved: readonly MethodDeclaration[] = [passwordMethod],
  trustAllowed = true,
): Promise<SecondStepRequired> {
  const token = newStateValue();
  const pending: PendingStep = { proved: [...proved], generation: Number(user.credential_generation) };
  await flowState(deps.db).put('second-step', token, {
    subject: user.id,
    data: JSON.stringify(pending),
    ttlMs: SECOND_STEP_TTL_MS,
  });
  return { second_step: 'totp', pending_token: token, trust_allowed: trustAllowed };
}

interface PendingStep {
  proved: MethodDeclaration[];
  generation: number;
}

/** What a pending second step was started with (written by startSecondStep only), or null. */
function pendingStep(data: string | null): PendingStep | null {
  try {
    const parsed = JSON.parse(data ?? 'null') as Partial<PendingStep> | null;
    if (!parsed || !Array.isArray(parsed.proved) || typeof parsed.generation !== 'number') return null;
    return { proved: parsed.proved, generation: parsed.generation };
  } catch {
    return null;
  }
}

/**
 * The code step: the pending token (of this address), then one code. A wrong code counts against the
 * token (SECOND_STEP_MAX_TRIES, then the password is asked again); the right one consumes the token
 * (one DELETE, so of parallel answers one signs in). Returns the user, the first factors and the
 * method of this code.
 */
export async function answerSecondStep(
  deps: AccountsDeps,
  input: { email: string; pending_token: string; code: string },
): Promise<{ user: UserRow; first: MethodDeclaration[]; second: MethodDeclaration }> {
  const challenges = flowState(deps.db);
  const pending = await challenges.peek('second-step', input.pending_token, SECOND_STEP_MAX_TRIES);
  const user = pending?.subject ? await usersRepository(deps.db).byId(pending.subject) : undefined;
  const started = pendingStep(pending?.data ?? null);
  if (!user || user.email !== normalizeEmail(input.email)) throw new AppError('ERR_SECOND_STEP_EXPIRED');
  // Checked before the code is used: a code relayed for a step the owner has since ended is not spent.
  if (!started || started.generation !== Number(user.credential_generation)) {
    throw new AppError('ERR_SECOND_STEP_EXPIRED');
  }
  const second = await useSecondFactor(deps, user.id, input.code);
  if (!second) {
    const left = await challenges.fail('second-step', input.pending_token, SECOND_STEP_MAX_TRIES);
    throw new AppError(left > 0 ? 'ERR_SECOND_STEP_INVALID' : 'ERR_SECOND_STEP_EXPIRED', { wrongSecret: true });
  }
  const taken = await challenges.take('second-step', input.pending_token, SECOND_STEP_MAX_TRIES);
  if (!taken) throw new AppError('ERR_SECOND_STEP_EXPIRED');
  return { user, first: started.proved, second };
}

/**
 * The trusted-browser cookie's new value after a completed second step of `user`, or null where the
 * domain's policy does not let a browser skip the step.
 */
export async function trustedBrowserCookie(
  deps: AccountsDeps,
  user: UserRow,
  current: string | undefined,
): Promise<string | null> {
  const rules = await domainsRepository(deps.db).rules(emailDomain(user.email));
  return rules.trustBrowsers ? trustBrowser(deps.config.keys.device, current, user) : null;
}
