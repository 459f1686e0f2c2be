/**
 * Constants the server's single sign-on uses (and the web's /login-error-sso page, SSO_ERROR_REASONS):
 * in a module of their own so that they stay out of the web's entry chunk (a module is bundled whole).
 */

/**
 * Why a sign-in with the company's identity provider failed: the
 * `/login-error-sso?reason=` values, each with its own title and text on that page.
 */
export const SSO_ERROR_REASONS = [
  /** The provider could not be reached or answered with an error of its own. */
  'unavailable',
  /** The person cancelled or the provider refused the sign-in (OIDC access_denied, SAML status not Success). */
  'cancelled',
  /** The answer was malformed, unsigned, tampered with, for another client or audience, or its state did not match. */
  'invalid',
  /** The answer was used before (a replayed code or assertion) or the sign-in took too long. */
  'expired',
  /** The provider does not vouch for the address (email_verified false or missing). */
  'unverified',
  /** The address is not of the company domain that the connection belongs to. */
  'foreign',
  /** The account or its domain is deactivated. */
  'inactive',
  /** The domain has no single sign-on connection (any more). */
  'not-configured',
  /** The provider vouched for the address, but for another person than the one who signed in with it before. */
  'other-person',
  /** A first sign-in would make an account, and the domain's free plan has no seat left. */
  'no-seats',
  /** The provider's answer carried no e-mail address (no attribute or claim the connection maps). */
  'no-email',
  /** The provider refused our client (wrong client secret, unknown client, redirect URI not registered). */
  'misconfigured',
  /** The provider sent a sign-in we did not ask for (its app tile) and the connection does not allow it. */
  'idp-initiated',
] as const;
export type SsoErrorReason = (typeof SSO_ERROR_REASONS)[number];
/**
 * After `sso sp-key rotate`, the retired SAML service provider key still decrypts assertions for this
 * many days: IdPs reading our metadata URL take the new certificate within a day, those given the
 * metadata by hand keep encrypting to the old one until their admin uploads the new file.
 */
export const SSO_SP_KEY_OVERLAP_DAYS = 14;
/** An unsolicited (IdP-initiated) SAML response is taken only this soon after the IdP issued it. */
export const SSO_IDP_INITIATED_MAX_AGE_SECONDS = 120;
/** A sign-in started with a provider must come back within this time (state, nonce, SAML request). */
export const SSO_REQUEST_TTL_SECONDS = 600;
/** A SAML connection's metadata URL is read again this often (a rotated certificate is taken on its own). */
export const SSO_METADATA_REFRESH_MS = 24 * 3600_000;
/** A provider's signing certificate this close to its end is warned about (log, metric, `sso show`). */
export const SSO_CERTIFICATE_WARN_DAYS = 30;
/** The /auth hand-off token's lifetime: it is exchanged right after the redirect. */
export const HANDOFF_TTL_SECONDS = 60;
/**
 * The largest form a SAML IdP may post to the assertion consumer service: a signed response is a few
 * KiB; anything bigger is refused before it is decoded (it costs the server, not the sender).
 */
export const SAML_RESPONSE_MAX_BYTES = 64 * 1024;
/**
 * The shape a SAML response may have before it reaches the XML validator, whose XPath searches grow with
 * the square of the element count: a signed response with its attributes has some 30–80 elements and a
 * depth under 12; a few hundred group values still fit. More elements, or deeper nesting, is refused
 * by one linear pass over the text, as is any DOCTYPE (entity expansion).
 */
export const SAML_MAX_ELEMENTS = 400;
export const SAML_MAX_DEPTH = 32;
/** Clock skew allowed on SAML NotBefore/NotOnOrAfter and OIDC iat/exp. */
export const SSO_CLOCK_SKEW_SECONDS = 60;

/** How a session was signed in, as the sessions panel names it. */
export const SESSION_METHODS = ['password', 'sso', 'passkey', 'code', 'recovery'] as const;
export type SessionMethodName = (typeof SESSION_METHODS)[number];
/** A stored method as one of SESSION_METHODS; undefined for a value this version does not name. */
export const sessionMethodOf = (value: string | null | undefined): SessionMethodName | undefined =>
  (SESSION_METHODS as readonly (string | null | undefined)[]).includes(value)
    ? (value as SessionMethodName)
    : undefined;
