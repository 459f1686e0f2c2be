import type { SsoErrorReason } from '@suite/contract';

/** Who a provider vouched for (OIDC claims or SAML attributes), before our own checks. */
export interface SsoIdentity {
  email: string;
  firstName: string;
  lastName: string;
  /** Who vouched: the OIDC issuer or the SAML IdP's entity ID. */
  issuer: string;
  /** The provider's own id of the person (OIDC sub, SAML NameID). */
  subject: string;
  /** Whether `subject` names the same person on every sign-in (not a SAML transient or e-mail NameID). */
  pinnable: boolean;
  /** When the person last authenticated at the provider (OIDC auth_time, SAML AuthnInstant; seconds). */
  authTime?: number;
  /** The provider's session: OIDC `sid` or SAML SessionIndex (single logout names it). */
  sessionIndex?: string | null;
  /** SAML NameID format (a LogoutRequest repeats it). */
  nameIdFormat?: string | null;
  /** OIDC: the ID token, for RP-initiated logout's id_token_hint. */
  idToken?: string;
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
