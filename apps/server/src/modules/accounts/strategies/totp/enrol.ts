import {
  SECOND_STEP_MAX_TRIES,
  SECOND_STEP_TTL_MS,
  normalizeEmail,
  type EnrolResponse,
  type Language,
  type TotpSetupResponse,
  type TwoStepEnrolmentRequired,
} from '@suite/contract';
import { AppError } from '../../../../errors.js';
import { seal } from '../../../../keys.js';
import type { AccountsDeps } from '../../deps.js';
import type { DomainRules } from '../../domains/repository.js';
import { holderOf, noteFactorChange } from '../../identity/factor-changes.js';
import { usersRepository, type UserRow } from '../../identity/repository.js';
import { flowState, newStateValue } from '../../state/repository.js';
import type { MethodDeclaration } from '../method.js';
import { totpMethod } from './method.js';
import { totpRepository } from './repository.js';
import { codeStep, newSecret, otpauthUri, qrSvg } from './secrets.js';
import { issueRecoveryCodes, openSecret } from './service.js';

/**
 * Enrolment at sign-in: a domain whose administrators require two-step verification gives a person
 * who has no second factor no session after the password (once its grace is over): a short-lived
 * pending token instead, good for the app's secret and then, with the app's first code, for the
 * session. The session then stands at AAL2, like a sign-in with the code step.
 */
export function enrolmentDue(rules: DomainRules, now = Date.now()): boolean {
  return rules.twoStepRequiredFrom !== null && now >= rules.twoStepRequiredFrom;
}

interface PendingEnrolment {
  proved: MethodDeclaration[];
  generation: number;
}

export async function startEnrolmentStep(
  deps: AccountsDeps,
  user: UserRow,
  proved: readonly MethodDeclaration[],
): Promise<TwoStepEnrolmentRequired> {
  const token = newStateValue();
  const pending: PendingEnrolment = { proved: [...proved], generation: Number(user.credential_generation) };
  await flowState(deps.db).put('enrol', token, {
    subject: user.id,
    data: JSON.stringify(pending),
    ttlMs: SECOND_STEP_TTL_MS,
  });
  return { enrol: 'totp', pending_token: token };
}

async function pendingOf(deps: AccountsDeps, input: { email: string; pending_token: string }) {
  const pending = await flowState(deps.db).peek('enrol', input.pending_token, SECOND_STEP_MAX_TRIES);
  const user = pending?.subject ? await usersRepository(deps.db).byId(pending.subject) : undefined;
  let started: PendingEnrolment | null = null;
  try {
    started = JSON.parse(pending?.data ?? 'null') as PendingEnrolment | null;
  } catch {
    started = null;
  }
  if (!user || !started || user.email !== normalizeEmail(input.email)) throw new AppError('ERR_SECOND_STEP_EXPIRED');
  if (started.generation !== Number(user.credential_generation)) throw new AppError('ERR_SECOND_STEP_EXPIRED');
  return { user, proved: started.proved };
}

/** The app's secret for the pending sign-in (a new one on each call until the first code confirms one). */
export async function enrolSetup(
  deps: AccountsDeps,
  input: { email: string; pending_token: string },
): Promise<TotpSetupResponse> {
  const { user } = await pendingOf(deps, input);
  const secret = await newSecret();
  if (!(await totpRepository(deps.db).startEnrolment(user.id, seal(deps.config.keys.totp, secret)))) {
    throw new AppError('ERR_TOTP_ALREADY_ON');
  }
  const uri = await otpauthUri(secret, user.email, deps.config.appTitle);
  return { secret, uri, qr_svg: await qrSvg(uri) };
}

/**
 * The app's first code: two-step verification on (the person is mailed, as from the Security panel),
 * recovery codes out, the pending token used up; `finish` makes the session of the sign-in.
 */
export async function enrol(
  deps: AccountsDeps,
  input: { email: string; pending_token: string; code: string; language?: Language | undefined },
  finish: (
    user: UserRow,
    proved: MethodDeclaration[],
  ) => Promise<{ token: string; profiles: EnrolResponse['profiles'] }>,
): Promise<EnrolResponse> {
  const { user, proved } = await pendingOf(deps, input);
  const factor = await totpRepository(deps.db).factor(user.id);
  const secret = factor && factor.enabled_at === null ? openSecret(deps, factor.secret_enc) : null;
  const step = secret ? await codeStep(secret, input.code) : null;
  if (step === null) {
    const left = await flowState(deps.db).fail('enrol', input.pending_token, SECOND_STEP_MAX_TRIES);
    throw new AppError(left > 0 ? 'ERR_TOTP_CODE_INVALID' : 'ERR_SECOND_STEP_EXPIRED', { wrongSecret: true });
  }
  const codes = await deps.db.transaction().execute(async (trx) => {
    if (!(await flowState(trx).take('enrol', input.pending_token, SECOND_STEP_MAX_TRIES))) {
      throw new AppError('ERR_SECOND_STEP_EXPIRED');
    }
    if (!(await totpRepository(trx).useStep(user.id, step, true))) throw new AppError('ERR_TOTP_CODE_INVALID');
    const issued = await issueRecoveryCodes(deps, trx, user.id);
    await noteFactorChange(trx, deps.mailer, holderOf(user, input.language), { kind: 'totp-on' }, null);
    return issued;
  });
  deps.mailer.kick();
  const fresh = await usersRepository(deps.db).byId(user.id);
  const session = await finish(fresh ?? user, [...proved, totpMethod]);
  return { ...session, recovery_codes: codes };
}
