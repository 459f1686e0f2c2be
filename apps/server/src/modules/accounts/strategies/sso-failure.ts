import type { SsoErrorReason } from '@suite/contract';

/** Who a provider vouched for (OIDC claims or SAML attributes), before our own checks. */
export interface SsoIdentity {
  email: string;
  firstName: string;
  lastName: string;
  /** The provider's own id of the person (OIDC sub, SAML NameID), for the log. */
  subject: string;
}

/**
 * A single-sign-on attempt that must end on /login-error-sso: `reason` is what the person is told
 * (contract SSO_ERROR_REASONS), `detail` what the log says (never a token or an assertion).
 */
export class SsoFailure extends Error {
  constructor(
    readonly reason: SsoErrorReason,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'SsoFailure';
  }
}
