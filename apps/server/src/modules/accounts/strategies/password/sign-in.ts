import { emailDomain, isEmailShape, normalizeEmail } from '@suite/contract';
import { AppError } from '../../../../errors.js';
import type { AccountsDeps } from '../../deps.js';
import { domainsRepository } from '../../domains/repository.js';
import { awaitsCodeStep, usersRepository, type UserRow } from '../../identity/repository.js';
import { verifyPassword } from './passwords.js';

/**
 * The password strategy: proves who the person is from an address and a password and returns the
 * account; the login flow (`login/finish.ts`) makes the session. Unknown address and wrong password
 * answer alike (same status, body, and an argon2 verification either way). Domain rules come first:
 * they say nothing about one particular address.
 */
export async function passwordSignIn(deps: AccountsDeps, input: { login: string; password: string }): Promise<UserRow> {
  const email = normalizeEmail(input.login);
  if (!email || !input.password) throw new AppError('ERR_VALIDATION');
  const shaped = isEmailShape(email);
  const known = shaped ? await usersRepository(deps.db).byEmail(email) : undefined;
  if (shaped) {
    const rules = await domainsRepository(deps.db).rules(emailDomain(email));
    if (!rules.active) throw new AppError('ERR_DOMAIN_DISABLED');
    if (rules.ssoOnly) throw new AppError('ERR_SSO_LOGIN_ONLY');
  }
  const waiting = known !== undefined && awaitsCodeStep(known);
  const ok = await verifyPassword(waiting ? null : (known?.password_hash ?? null), input.password);
  // The password is set after the code step, so an account still waiting for it has none to check;
  // "not confirmed" lets the screen offer "Send again", which leads through the code to the welcome step.
  if (waiting) throw new AppError('ERR_USER_NOT_CONFIRMED');
  if (!known || !ok) throw new AppError('ERR_INVALID_CREDENTIALS');
  return known;
}
