import { PROOF_FRESH_MS } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { DomainRules } from '../domains/repository.js';
import type { MethodDeclaration } from '../strategies/method.js';

/**
 * The one sign-in policy: for an account and its domain, which methods may sign in, what assurance a
 * set of proofs reached, whether a sign-in is complete, and whether a session's last proof is recent
 * enough for a factor change. Every method (strategies/*) and every flow that ends in a session asks
 * here; none decides for itself. It reads the methods' declarations (strategies/method.ts), never
 * their names, so a new method needs no change here.
 */

/** What the policy needs of an account: plain values its caller has read once. */
export interface PolicyAccount {
  active: boolean | number;
  /** An authenticator app is on: a password or an e-mailed code alone is not enough. */
  secondFactor: boolean;
}

/** Authenticator assurance levels (NIST SP 800-63B): one factor, or two distinct ones. */
export type Assurance = 1 | 2;

/**
 * An `--sso-only` domain signs in with its provider alone: a password, an e-mailed code, a passkey or
 * an app code there would be a door its administrators cannot close. An inactive domain or account
 * signs in with nothing.
 */
export function allows(rules: DomainRules, method: MethodDeclaration): boolean {
  return rules.active && (!rules.ssoOnly || method.federated);
}

/**
 * The refusal for a method the policy does not allow, or nothing. The password keeps its own text
 * (the sign-in screen names single sign-on for it).
 */
export function requireAllowed(
  account: Pick<PolicyAccount, 'active'>,
  rules: DomainRules,
  method: MethodDeclaration,
): void {
  if (!account.active) throw new AppError('ERR_USER_NOT_ACTIVE');
  if (!rules.active) throw new AppError('ERR_DOMAIN_DISABLED');
  if (!allows(rules, method)) {
    throw new AppError(method.proves === 'first' ? 'ERR_SSO_LOGIN_ONLY' : 'ERR_SSO_ONLY_METHOD');
  }
}

/** AAL2 when the proofs include a multi-factor one, or a first and a second factor; AAL1 otherwise. */
export function assurance(proved: readonly MethodDeclaration[]): Assurance {
  if (proved.some((m) => m.proves === 'both')) return 2;
  return proved.some((m) => m.proves === 'first') && proved.some((m) => m.proves === 'second') ? 2 : 1;
}

/**
 * A sign-in is complete when the provider vouched for it (it does its own second factor), when it
 * reached AAL2, or when the account has no second factor to ask for. Otherwise the second step comes.
 */
export function isComplete(account: PolicyAccount, proved: readonly MethodDeclaration[]): boolean {
  if (proved.some((m) => m.federated)) return true;
  return assurance(proved) === 2 || !account.secondFactor;
}

/**
 * A browser this account trusted at a completed two-step sign-in (identity/trusted-browser.ts) stands in
 * for the second step after a first factor, where the domain allows it. It proves no factor: the
 * session keeps the first factor's `amr` and assurance (AAL1), so a factor change still asks for the
 * app or a passkey (requireFreshProof).
 */
export const trustedBrowserSkipsStep = (rules: DomainRules, proved: readonly MethodDeclaration[], trusted: boolean) =>
  trusted && rules.trustBrowsers && proved.length > 0 && proved.every((m) => m.proves === 'first');

/** The `amr` values of a set of proofs, in order, without repeats. */
export const amrOf = (proved: readonly MethodDeclaration[]): string[] => [...new Set(proved.map((m) => m.amr))];

/** The session's last proof (sign-in or re-authentication) is at most PROOF_FRESH_MS old. */
function isFresh(session: { provedAt: number | null }, now = Date.now()): boolean {
  return session.provedAt !== null && now - session.provedAt <= PROOF_FRESH_MS && session.provedAt <= now;
}

/**
 * A factor change (a passkey, two-step verification, recovery codes) with a session whose last proof
 * is older than that: refused with ERR_PROOF_REQUIRED, which the Security panel answers with the
 * fresh-proof dialog and a retry. A stolen session token alone cannot add the thief's factor. On an
 * account with a second factor the session must also stand at AAL2 (its sign-in, or a fresh proof with
 * the app or a passkey): a password alone (phished) must not bind a factor that then signs in at AAL2
 * without the app (NIST SP 800-63B 6.1.2.1).
 */
export function requireFreshProof(
  session: { provedAt: number | null; aal?: number },
  account: Pick<PolicyAccount, 'secondFactor'> = { secondFactor: false },
  now = Date.now(),
): void {
  if (!isFresh(session, now)) throw new AppError('ERR_PROOF_REQUIRED');
  if (account.secondFactor && Number(session.aal ?? 1) < 2) throw new AppError('ERR_PROOF_REQUIRED');
}

/**
 * Recovery by mail is a sign-in method too (the mailbox): refused where the domain signs in with its
 * provider only.
 */
export const mayRecoverByMail = (
  account: Pick<PolicyAccount, 'active'>,
  rules: DomainRules,
  emailCode: MethodDeclaration,
) => Boolean(account.active) && allows(rules, emailCode);
