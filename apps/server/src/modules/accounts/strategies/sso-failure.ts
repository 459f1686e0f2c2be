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
  /** What the answer carried, for the log of a refusal: attribute or claim names (never values), NameID format. */
  received: string;
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

/** Whose sign-in failed, as far as the flow got: the connection's domain, and the address the provider sent. */
export interface SsoFailureContext {
  domain?: string;
  email?: string;
}

const CONTEXT = Symbol('sso-failure-context');

/**
 * Tags a failed provider return with whose it was, so the refusal can join that domain's audit trail
 * (its administrators see their SSO failures). The first tag wins: the innermost knows the most.
 */
export function withSsoContext(error: unknown, context: SsoFailureContext): unknown {
  if (error !== null && typeof error === 'object' && !(CONTEXT in error) && context.domain) {
    Object.defineProperty(error, CONTEXT, { value: { ...context }, enumerable: false });
  }
  return error;
}

export function ssoContextOf(error: unknown): SsoFailureContext | undefined {
  return error !== null && typeof error === 'object' && CONTEXT in error
    ? ((error as Record<symbol, SsoFailureContext>)[CONTEXT] ?? undefined)
    : undefined;
}

/**
 * An error as readable text, causes included (fetch's `TypeError: fetch failed` says why only in its
 * cause: a refused connection, a self-signed chain); never `[object Response]` or `[object Object]`.
 */
export function describeError(error: unknown, depth = 0): string {
  if (depth === 0) {
    const advice = tlsAdvice(error);
    return advice ? `${describeError(error, 1)}: ${advice}` : describeError(error, 1);
  }
  if (depth > 5) return '…';
  if (error instanceof Response) return `HTTP ${error.status} ${error.statusText} from ${error.url || 'the provider'}`;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const head = `${error.name}: ${error.message}${typeof code === 'string' && !error.message.includes(code) ? ` [${code}]` : ''}`;
    return error.cause === undefined ? head : `${head} (${describeError(error.cause, depth + 1)})`;
  }
  if (Array.isArray(error)) return error.map((e) => describeError(e, depth + 1)).join('; ');
  if (error !== null && typeof error === 'object') {
    try {
      return JSON.stringify(error);
    } catch {
      return Object.prototype.toString.call(error);
    }
  }
  return String(error);
}

const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** The error code somewhere in an error's chain of causes. */
function codeIn(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || !(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.length > 0 ? code : codeIn(error.cause, depth + 1);
}

/** What to do about a TLS trust problem, named by its cause; undefined for any other error. */
function tlsAdvice(error: unknown): string | undefined {
  const code = codeIn(error);
  if (code === undefined) return undefined;
  if (UNTRUSTED.has(code))
    return `the provider's TLS certificate chain is not trusted here (${code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN' ? 'a self-signed certificate or private CA' : 'an unknown or missing intermediate CA'}): start the server and the CLI with NODE_EXTRA_CA_CERTS=/path/to/its-ca.pem, or have the provider send its whole chain`;
  if (code === 'CERT_HAS_EXPIRED') return "the provider's TLS certificate has expired: the provider must renew it";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return "the provider's TLS certificate is for another host name: use the host name it names";
  return undefined;
}
