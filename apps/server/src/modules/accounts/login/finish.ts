import { emailDomain, type PasswordLoginResponse, type SessionResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { SessionMethod } from '../../../plugins/auth.js';
import type { AccountsDeps } from '../deps.js';
import { domainsRepository, type DomainRules } from '../domains/repository.js';
import type { UserRow } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';
import { amrOf, assurance, isComplete, requireAllowed, trustedBrowserSkipsStep } from '../policy/index.js';
import { browserTrusted } from '../identity/trusted-browser.js';
import { ssoMethod, type MethodDeclaration } from '../strategies/method.js';
import { startSecondStep, totpOn } from '../strategies/totp/service.js';
import { enrolmentDue, startEnrolmentStep } from '../strategies/totp/enrol.js';
import { recordAudit } from '../../audit/index.js';

export interface FinishOptions {
  /** What this sign-in proved so far, first factor first (declarations of strategies/*). */
  proved: readonly MethodDeclaration[];
  /** The domain's rules when the method has read them already (read once per sign-in). */
  rules?: DomainRules;
  device?: string | null;
  /** The client's address, for the audit trail's sign-in event. */
  ip?: string | null;
  /** The request's trusted-browser cookie (identity/trusted-browser.ts), where the method is a first factor. */
  trustedBrowser?: string | undefined;
}

/**
 * Where every sign-in method ends: the strategy has proved who the person is; the policy says whether
 * the account and its domain allow the method, and whether the sign-in is complete. Complete: the
 * per-device session, with its `amr` and assurance. Not yet (an authenticator app is on and only a
 * first factor was given): the second step, a short-lived single-use pending token (stored hashed)
 * that remembers what was proved.
 */
export async function finishSignIn(
  deps: AccountsDeps,
  user: UserRow,
  options: FinishOptions,
): Promise<PasswordLoginResponse> {
  const rules = options.rules ?? (await domainsRepository(deps.db).rules(emailDomain(user.email)));
  const first = options.proved[0];
  if (!first) throw new AppError('ERR_COULD_NOT_AUTHENTICATE');
  for (const method of options.proved) requireAllowed(user, rules, method);
  const federated = options.proved.some((m) => m.federated);
  const account = { active: user.active, secondFactor: !federated && (await totpOn(deps, user.id)) };
  if (!isComplete(account, options.proved)) {
    const trusted = browserTrusted(deps.config.keys.device, options.trustedBrowser, user);
    if (!trustedBrowserSkipsStep(rules, options.proved, trusted)) {
      return startSecondStep(deps, user, options.proved, rules.trustBrowsers);
    }
  }
  // The domain requires two-step verification: a one-factor sign-in without one enrols before any session.
  if (!federated && !account.secondFactor && assurance(options.proved) === 1 && enrolmentDue(rules)) {
    return startEnrolmentStep(deps, user, options.proved);
  }
  return deps.db.transaction().execute(async (trx) => {
    const session = await sessionFor(deps, user, {
      device: options.device ?? null,
      method: first.session,
      amr: amrOf(options.proved),
      aal: assurance(options.proved),
      db: trx,
    });
    await recordAudit(trx, {
      kind: 'sign_in',
      action: first.session,
      target: { id: user.id, email: user.email },
      ip: options.ip ?? null,
    });
    return session;
  });
}

/**
 * finishSignIn for the flows whose answer must be a session (a passkey, the second step, a
 * provider's hand-off): an incomplete sign-in there is a failure, never a session.
 */
export async function finishWithSession(
  deps: AccountsDeps,
  user: UserRow,
  options: FinishOptions | { method: Extract<SessionMethod, 'sso'>; device?: string | null; ip?: string | null },
): Promise<SessionResponse> {
  const finish =
    'proved' in options ? options : { proved: [ssoMethod], device: options.device ?? null, ip: options.ip ?? null };
  const done = await finishSignIn(deps, user, finish);
  if (!('token' in done)) throw new AppError('ERR_COULD_NOT_AUTHENTICATE');
  return done;
}
