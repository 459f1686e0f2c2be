import type { Configuration } from 'openid-client';
import { SsoFailure, describeError, type SsoIdentity } from '../sso-failure.js';
import { namesFor, readAttribute } from '../sso-attributes.js';
import type { OidcSettings } from '../../sso/connections.js';

type OpenIdClient = typeof import('openid-client');
let loaded: Promise<OpenIdClient> | undefined;
/** openid-client, loaded with the first OpenID Connect sign-in (not at start). */
export const openid = () => (loaded ??= import('openid-client'));

/** Seconds any call to the provider may take (discovery, token, keys). */
const PROVIDER_TIMEOUT_S = 10;
/** A provider's discovery document and keys are read again after this long (or after a change). */
const DISCOVERY_TTL_MS = 10 * 60_000;

const configurations = new Map<string, { key: string; at: number; config: Promise<Configuration> }>();

/** The provider's configuration from its discovery document, kept per connection for a while. */
async function configurationOf(domain: string, settings: OidcSettings, secret: string, updatedAt: number) {
  const client = await openid();
  const key = `${updatedAt}:${settings.issuer}:${settings.clientId}`;
  const cached = configurations.get(domain);
  if (cached && cached.key === key && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const config = client
    .discovery(new URL(settings.issuer), settings.clientId, secret, client.ClientSecretPost(secret), {
      timeout: PROVIDER_TIMEOUT_S,
    })
    .then((c) => {
      c.timeout = PROVIDER_TIMEOUT_S;
      // The ID token's signature is checked against the provider's published keys: TLS alone proves only
      // which server answered, not that the provider signed what it says about the person.
      client.enableNonRepudiationChecks(c);
      return c;
    });
  configurations.set(domain, { key, at: Date.now(), config });
  config.catch(() => configurations.delete(domain));
  return config;
}

export interface OidcConnectionRef {
  domain: string;
  id: string;
  settings: OidcSettings;
  clientSecret: string;
  updatedAt: number;
}

/** The connection's provider configuration; a provider that cannot be discovered is 'unavailable'. */
export const providerOf = (connection: OidcConnectionRef) =>
  configurationOf(connection.domain, connection.settings, connection.clientSecret, connection.updatedAt).catch(
    (error: unknown) => {
      const detail = `discovery of ${connection.settings.issuer} failed: ${describeError(error)}`;
      // The provider answered, naming itself otherwise (often a trailing slash): the connection's issuer is
      // wrong, not the provider down.
      if ((error as { code?: unknown }).code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED')
        throw new SsoFailure('misconfigured', `${detail}: set the issuer exactly as the provider's discovery names it`);
      throw new SsoFailure('unavailable', detail);
    },
  );

/** What the callback needs back: kept server-side under the state, never in the browser. */
export interface OidcPending {
  verifier: string;
  nonce: string;
  /** The redirect URI the authorization request named: the token request must name the same. */
  redirectUri: string;
}

/** Google's issuer: its ID tokens name the Workspace of the person in `hd`. */
const GOOGLE_ISSUER = 'https://accounts.google.com';
/** Issuers compare exactly, as OIDC Discovery says: `https://host/realms/x/` is not `https://host/realms/x`. */
const sameIssuer = (a: string, b: string) => a === b;

/**
 * The OpenID Connect strategy (openid-client 6): authorization code flow with PKCE (S256), state and
 * nonce; the callback checks `iss` (RFC 9207, when the provider announces it), the ID token's signature,
 * aud, exp, iat and nonce (openid-client), then email_verified and the address's domain (here).
 */
export const oidcStrategy = {
  async begin(connection: OidcConnectionRef, input: { redirectUri: string; loginHint: string; forceLogin?: boolean }) {
    const client = await openid();
    const config = await providerOf(connection);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: input.redirectUri,
      scope: connection.settings.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(input.loginHint ? { login_hint: input.loginHint } : {}),
      // A fresh proof: the provider must ask the person again, whatever session it has.
      ...(input.forceLogin ? { max_age: '0', prompt: 'login' } : {}),
    });
    return { url: url.href, state, pending: { verifier, nonce, redirectUri: input.redirectUri } satisfies OidcPending };
  },

  async complete(
    connection: OidcConnectionRef,
    input: { callbackUrl: URL; state: string; pending: OidcPending },
  ): Promise<SsoIdentity> {
    const client = await openid();
    const config = await providerOf(connection);
    const provider = config.serverMetadata();
    // The issuer is pinned per connection: the discovered one must be the one the operator set, and the
    // authorization response must name it whenever the provider says it does (RFC 9207), so a code of
    // another customer's provider cannot be answered into this connection's flow.
    if (!sameIssuer(provider.issuer, connection.settings.issuer))
      throw new SsoFailure('invalid', `discovered issuer ${provider.issuer} is not the connection's`);
    const iss = input.callbackUrl.searchParams.get('iss');
    if (iss === null && provider.authorization_response_iss_parameter_supported)
      throw new SsoFailure('invalid', 'authorization response without iss');
    if (iss !== null && iss !== provider.issuer) throw new SsoFailure('invalid', `authorization response iss ${iss}`);
    let claims: Record<string, unknown> | undefined;
    let idToken: string | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(config, input.callbackUrl, {
        pkceCodeVerifier: input.pending.verifier,
        expectedState: input.state,
        expectedNonce: input.pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
      if (!claims) throw new SsoFailure('invalid', 'no ID token claims');
      idToken = tokens.id_token;
      // Providers may keep email and email_verified for the UserInfo endpoint (OIDC Core 5.4): ask it,
      // for the same subject as the signed ID token.
      if (claims.email === undefined || claims.email_verified === undefined) {
        const info = await client.fetchUserInfo(config, tokens.access_token, String(claims.sub));
        claims = { ...info, ...Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)) };
      }
    } catch (error) {
      if (error instanceof SsoFailure) throw error;
      throw failureOf(client, error);
    }
    const received = `claims received: ${Object.keys(claims).sort().join(', ')}`;
    // The provider vouches for the address only with email_verified true, unless the connection says it
    // is the authority for its domains (Entra ID work accounts never send the claim).
    if (claims.email_verified !== true && !connection.settings.trustEmail)
      throw new SsoFailure(
        'unverified',
        `email_verified is ${claims.email_verified === undefined ? 'missing' : JSON.stringify(claims.email_verified)} (sso set --trust-email when the provider is the authority for the domain); ${received}`,
      );
    // Google vouches for every Google account; only `hd` says it belongs to the company's Workspace.
    const hostedDomain =
      connection.settings.hostedDomain ?? (sameIssuer(provider.issuer, GOOGLE_ISSUER) ? connection.domain : undefined);
    if (hostedDomain !== undefined && claims.hd !== hostedDomain)
      throw new SsoFailure('foreign', `hosted domain ${typeof claims.hd === 'string' ? claims.hd : 'missing'}`);
    const mapping = connection.settings.mapping;
    const email = readAttribute(claims, namesFor(mapping, 'email'));
    const [given, family] = namesOf(claims, mapping);
    return {
      email,
      firstName: given,
      lastName: family,
      issuer: provider.issuer,
      subject: String(claims.sub ?? ''),
      pinnable: true,
      ...(typeof claims.auth_time === 'number' ? { authTime: claims.auth_time } : {}),
      received,
      sessionIndex: typeof claims.sid === 'string' ? claims.sid : null,
      ...(idToken ? { idToken } : {}),
    };
  },
};

function namesOf(claims: Record<string, unknown>, mapping: OidcSettings['mapping']): [string, string] {
  const given = readAttribute(claims, namesFor(mapping, 'firstName'));
  const family = readAttribute(claims, namesFor(mapping, 'lastName'));
  if (given || family) return [given, family];
  const name = typeof claims.name === 'string' ? claims.name.trim() : '';
  const space = name.lastIndexOf(' ');
  return space > 0 ? [name.slice(0, space), name.slice(space + 1)] : [name, ''];
}

/** OAuth errors that mean our client is refused or set up wrong at the provider, not that it is down. */
const CLIENT_REFUSED = new Set([
  'invalid_client',
  'unauthorized_client',
  'invalid_request',
  'invalid_scope',
  'unsupported_response_type',
  'unsupported_grant_type',
]);

/** What went wrong, as the person is told it: the provider's own refusal, a replay, or a bad answer. */
function failureOf(client: OpenIdClient, error: unknown): SsoFailure {
  if (error instanceof client.AuthorizationResponseError) {
    const code = error.error;
    const said = `authorization response error: ${code}${error.error_description ? ` (${error.error_description})` : ''}`;
    if (code === 'access_denied' || code === 'login_required' || code === 'consent_required')
      return new SsoFailure('cancelled', said);
    return new SsoFailure(CLIENT_REFUSED.has(code) ? 'misconfigured' : 'unavailable', said);
  }
  if (error instanceof client.ResponseBodyError) {
    const said = `token endpoint answered HTTP ${error.status} ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
    // invalid_grant: the code was used before, is not this client's, or its PKCE verifier does not match.
    if (error.error === 'invalid_grant') return new SsoFailure('invalid', said);
    // A wrong client secret or a client the provider does not know: the connection, not an outage.
    if (CLIENT_REFUSED.has(error.error) || error.status === 401)
      return new SsoFailure('misconfigured', `${said}: check the client id and secret (sso set)`);
    return new SsoFailure('unavailable', said);
  }
  if (error instanceof client.WWWAuthenticateChallengeError) {
    const codes = error.cause.map((c) => c.parameters.error ?? c.scheme).join(', ');
    return new SsoFailure(
      'misconfigured',
      `token endpoint refused the client (HTTP ${error.status}, ${codes}): check the client id and secret (sso set)`,
    );
  }
  if (error instanceof client.ClientError) return new SsoFailure('invalid', describeError(error));
  if (error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')) {
    return new SsoFailure('unavailable', describeError(error));
  }
  return new SsoFailure('invalid', describeError(error));
}
