import { emailDomain, isEmailShape, normalizeEmail, type PasswordLoginResponse } from '@suite/contract';
import { AppError } from '../../../../errors.js';
import type { AccountsDeps } from '../../deps.js';
import { domainsRepository, type DomainRules } from '../../domains/repository.js';
import { awaitsCodeStep, usersRepository, type UserRow } from '../../identity/repository.js';
import { finishSignIn } from '../../login/finish.js';
import { allows } from '../../policy/index.js';
import { passwordMethod } from './method.js';
import { verifyPassword } from './passwords.js';
import { recordAudit } from '../../../audit/index.js';

/**
 * Password login: this strategy proves who it is, the flow's one finish asks the policy and makes the
 * session (or, with two-step verification on, answers that the code step comes next). The domain's
 * rules are read once and handed on.
 */
export async function login(
  deps: AccountsDeps,
  input: {
    login: string;
    password: string;
    device?: string | null;
    ip?: string | null;
    /** The trusted-browser cookie: it may stand in for the second step (identity/trusted-browser.ts). */
    trustedBrowser?: string | undefined;
  },
): Promise<PasswordLoginResponse> {
  try {
    const { user, rules } = await passwordSignIn(deps, input);
    return await finishSignIn(deps, user, {
      proved: [passwordMethod],
      rules,
      device: input.device ?? null,
      ip: input.ip ?? null,
      trustedBrowser: input.trustedBrowser,
    });
  } catch (error) {
    // The domain's administrators see refused sign-ins with their reason (a failing trail never hides the answer).
    const email = normalizeEmail(input.login);
    if (error instanceof AppError && isEmailShape(email)) {
      await recordAudit(deps.db, {
        kind: 'sign_in_failed',
        action: 'password',
        target: { id: null, email },
        reason: error.code,
        ip: input.ip ?? null,
      }).catch(() => undefined);
    }
    throw error;
  }
}

/**
 * The password strategy: proves who the person is from an address and a password and returns the
 * account; the login flow (`login/finish.ts`) makes the session. Unknown address and wrong password
 * answer alike (same status, body, and an argon2 verification either way). Domain rules come first:
 * they say nothing about one particular address.
 */
async function passwordSignIn(
  deps: AccountsDeps,
  input: { login: string; password: string },
): Promise<{ user: UserRow; rules: DomainRules }> {
  const email = normalizeEmail(input.login);
  if (!email || !input.password) throw new AppError('ERR_VALIDATION');
  const shaped = isEmailShape(email);
  const known = shaped ? await usersRepository(deps.db).byEmail(email) : undefined;
  const rules = shaped ? await domainsRepository(deps.db).rules(emailDomain(email)) : undefined;
  if (rules && !rules.active) throw new AppError('ERR_DOMAIN_DISABLED');
  if (rules && !allows(rules, passwordMethod)) throw new AppError('ERR_SSO_LOGIN_ONLY');
  const waiting = known !== undefined && awaitsCodeStep(known);
  const ok = await verifyPassword(waiting ? null : (known?.password_hash ?? null), input.password);
  // The password is set after the code step, so an account still waiting for it has none to check;
  // "not confirmed" lets the screen offer "Send again", which leads through the code to the welcome step.
  if (waiting) throw new AppError('ERR_USER_NOT_CONFIRMED');
  if (!known || !ok || !rules) throw new AppError('ERR_INVALID_CREDENTIALS');
  return { user: known, rules };
}
