import type { ReauthRequest, SecurityState } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { SessionUser } from '../../../plugins/auth.js';
import { sessionsRepository } from '../../../plugins/sessions-repository.js';
import type { AccountsDeps } from '../deps.js';
import { domainsRepository } from '../domains/repository.js';
import { usersRepository } from '../identity/repository.js';
import { allows, assurance, requireAllowed } from '../policy/index.js';
import type { MethodDeclaration } from '../strategies/method.js';
import { passwordMethod } from '../strategies/password/method.js';
import { verifyPassword } from '../strategies/password/passwords.js';
import { totpMethod } from '../strategies/totp/method.js';
import { recoveryCodesLeft, totpOn, useSecondFactor } from '../strategies/totp/service.js';
import { passkeyMethod } from '../strategies/webauthn/method.js';
import { answerPasskeyLogin, listPasskeys } from '../strategies/webauthn/service.js';

/**
 * A fresh proof for the session in hand (POST /v2/user/reauth): the holder proves again, with a
 * method the policy allows for the account, and the session's last proof moves to now (what a factor
 * change asks for: policy.requireFreshProof). A wrong answer changes nothing.
 */
export async function reauthenticate(
  deps: AccountsDeps,
  session: SessionUser,
  input: ReauthRequest,
): Promise<{ ok: true }> {
  const user = await usersRepository(deps.db).byId(session.id);
  if (!user) throw new AppError('ERR_UNAUTHORIZED');
  const rules = await domainsRepository(deps.db).rules(user.domain);
  let proved: MethodDeclaration;
  if (input.method === 'password') {
    requireAllowed(user, rules, passwordMethod);
    if (!(await verifyPassword(user.password_hash, input.password))) throw new AppError('ERR_WRONG_CURRENT_PASSWORD');
    proved = passwordMethod;
  } else if (input.method === 'totp') {
    requireAllowed(user, rules, totpMethod);
    if ((await useSecondFactor(deps, user.id, input.code)) !== totpMethod) throw new AppError('ERR_TOTP_CODE_INVALID');
    proved = totpMethod;
  } else {
    requireAllowed(user, rules, passkeyMethod);
    // The same ceremony as a passkey sign-in, but it must be one of this account's passkeys.
    if ((await answerPasskeyLogin(deps, { response: input.response })).id !== user.id) {
      throw new AppError('ERR_PASSKEY_FAILED');
    }
    proved = passkeyMethod;
  }
  // The level of this proof, not the most the session ever reached: an app code re-proves a session
  // whose sign-in gave a first factor (AAL2); a password alone stays at AAL1, so on a two-step account
  // it does not open a factor change (policy.requireFreshProof).
  const level = proved === totpMethod ? 2 : assurance([proved]);
  await sessionsRepository(deps.db).markProved(session.sessionId, Date.now(), [proved.amr], level, true);
  return { ok: true };
}

/**
 * The Security panel's state: passkeys, two-step verification, and how this account can prove it is
 * the holder again (the policy's methods for it: an `--sso-only` account, its provider alone).
 */
export async function securityState(deps: AccountsDeps, session: SessionUser): Promise<SecurityState> {
  const user = await usersRepository(deps.db).byId(session.id);
  if (!user) throw new AppError('ERR_UNAUTHORIZED');
  const rules = await domainsRepository(deps.db).rules(user.domain);
  const on = await totpOn(deps, user.id);
  const passkeys = await listPasskeys(deps, user.id);
  const hasPassword = Boolean(user.password_hash);
  const reauth: NonNullable<SecurityState['reauth']> = [];
  // A password alone does not re-prove a two-step account for a factor change: the dialog offers
  // the app or a passkey then.
  if (hasPassword && allows(rules, passwordMethod) && !on) reauth.push('password');
  if (passkeys.length > 0 && allows(rules, passkeyMethod)) reauth.push('passkey');
  if (on && allows(rules, totpMethod)) reauth.push('totp');
  if (rules.ssoOnly || session.amr.includes('sso') || reauth.length === 0) reauth.push('sso');
  return {
    passkeys,
    totp: on,
    recovery_codes_left: on ? await recoveryCodesLeft(deps, user.id) : 0,
    totp_available: allows(rules, totpMethod),
    has_password: hasPassword,
    reauth,
  };
}
