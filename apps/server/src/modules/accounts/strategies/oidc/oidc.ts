import type { Configuration } from 'openid-client';
import { SsoFailure, type SsoIdentity } from '../sso-failure.js';
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
      throw new SsoFailure('unavailable', `discovery failed: ${describe(error)}`);
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
const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

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
    if (claims.email_verified !== true) throw new SsoFailure('unverified', 'email_verified is not true');
    // Google vouches for every Google account; only `hd` says it belongs to the company's Workspace.
    const hostedDomain =
      connection.settings.hostedDomain ?? (sameIssuer(provider.issuer, GOOGLE_ISSUER) ? connection.domain : undefined);
    if (hostedDomain !== undefined && claims.hd !== hostedDomain)
      throw new SsoFailure('foreign', `hosted domain ${typeof claims.hd === 'string' ? claims.hd : 'missing'}`);
    const email = typeof claims.email === 'string' ? claims.email : '';
    const [given, family] = namesOf(claims);
    return {
      email,
      firstName: given,
      lastName: family,
      issuer: provider.issuer,
      subject: String(claims.sub ?? ''),
      pinnable: true,
      ...(typeof claims.auth_time === 'number' ? { authTime: claims.auth_time } : {}),
      sessionIndex: typeof claims.sid === 'string' ? claims.sid : null,
      ...(idToken ? { idToken } : {}),
    };
  },
};

function namesOf(claims: Record<string, unknown>): [string, string] {
  const given = typeof claims.given_name === 'string' ? claims.given_name : '';
  const family = typeof claims.family_name === 'string' ? claims.family_name : '';
  if (given || family) return [given, family];
  const name = typeof claims.name === 'string' ? claims.name.trim() : '';
  const space = name.lastIndexOf(' ');
  return space > 0 ? [name.slice(0, space), name.slice(space + 1)] : [name, ''];
}

const describe = (error: unknown): string =>
  error instanceof Error
    ? `${error.name}: ${error.message}${error.cause ? ` (${describe(error.cause)})` : ''}`
    : String(error);

/** What went wrong, as the person is told it: the provider's own refusal, a replay, or a bad answer. */
function failureOf(client: OpenIdClient, error: unknown): SsoFailure {
  if (error instanceof client.AuthorizationResponseError) {
    const code = error.error;
    return new SsoFailure(
      code === 'access_denied' || code === 'login_required' || code === 'consent_required'
        ? 'cancelled'
        : 'unavailable',
      `authorization response error: ${code}`,
    );
  }
  if (error instanceof client.ResponseBodyError) {
    // invalid_grant: the code was used before, is not this client's, or its PKCE verifier does not match.
    return new SsoFailure(
      error.error === 'invalid_grant' ? 'invalid' : 'unavailable',
      `token endpoint: ${error.error}`,
    );
  }
  if (error instanceof client.ClientError) return new SsoFailure('invalid', describe(error));
  if (error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')) {
    return new SsoFailure('unavailable', describe(error));
  }
  return new SsoFailure('invalid', describe(error));
}
