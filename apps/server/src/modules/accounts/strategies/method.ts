import type { SessionMethod } from '../../../plugins/auth.js';

/**
 * What a sign-in method declares about itself; the policy (policy/index.ts) reads only this. A method
 * is one folder under strategies/ with a `method.ts` (this declaration) and, when it has any, its
 * routes; strategies/index.ts lists them.
 */
export interface MethodDeclaration {
  /** The `amr` value a proof by this method adds to a session (Kratos's names: password, code, totp, …). */
  amr: string;
  /** The sessions panel's label of a sign-in that started with this method. */
  session: SessionMethod;
  /**
   * What one proof by it stands for: a first factor (something known or a mailbox), a second factor
   * (an app or recovery code after a first one), or both at once (a passkey: a device plus its
   * screen lock).
   */
  proves: 'first' | 'second' | 'both';
  /** Bound to this site's origin, so a look-alike site cannot relay it. */
  phishingResistant: boolean;
  /** Proved at the customer's own identity provider, which does its own second factor. */
  federated: boolean;
}

/**
 * Single sign-on (OpenID Connect and SAML alike): the provider vouches for the person and does its
 * own two-step verification, so its sign-ins are complete.
 */
export const ssoMethod: MethodDeclaration = {
  amr: 'sso',
  session: 'sso',
  proves: 'both',
  phishingResistant: false,
  federated: true,
};
