import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { testCa } from './ca.js';

/** What the test provider says about a person who signs in with `login` (default: verified, named). */
export interface TestAccount {
  /** null: the claim is not sent. */
  email?: string | null;
  /** null: the claim is not sent (as Entra ID work accounts do). */
  email_verified?: boolean | null;
  /** Claims under other names (`Email`, `upn`, `FirstName`), as a provider's admin may configure them. */
  other?: Record<string, string>;
  given_name?: string;
  family_name?: string;
  /** Google's hosted-domain claim. */
  hd?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A second registered client: its codes are not ours. */
  otherClient: { id: string; secret: string };
  /** Overrides the claims of an account (by the login typed on the provider's page). */
  accounts: Map<string, TestAccount>;
  /**
   * What a broken or hostile provider does to its token endpoint's answer: 'forge-signature' flips the
   * ID token's signature; 'forge-claims' rewrites its claims (email) and keeps the old signature.
   */
  tamper: { idToken?: 'forge-signature' | 'forge-claims'; email?: string };
  /** What its token endpoint did: codes it was asked to redeem, ID tokens it answered (after `tamper`). */
  seen: { tokenRequests: number; idTokens: string[] };
  stop(): Promise<void>;
}

/** The admin CLI's arguments that connect `domain` to provider `op` (as an operator types them). */
export const ssoSetOidc = (domain: string, op: TestOidcProvider): string[] => [
  'sso',
  'set',
  domain,
  '--oidc',
  '--issuer',
  op.issuer,
  '--client-id',
  op.clientId,
  '--client-secret',
  op.clientSecret,
];

/**
 * panva's oidc-provider (OpenID Certified) over HTTPS on a random loopback port, as the identity
 * provider of the single-sign-on tests. Its development sign-in page takes any login (the address
 * the test types) and any password; consent is pre-granted to our client, as a company's IdP does for
 * its own applications. Authorization code flow with PKCE required, `iss` in the authorization response.
 * `redirectUris` is read at the first request (a connection's own redirect URI names its id, known only
 * once the connection is set with this provider's issuer).
 */
export async function startOidcProvider(
  redirectUris: string[],
  options: {
    issuerPath?: string;
    backchannelLogoutUri?: () => string;
    postLogoutRedirectUris?: string[];
  } = {},
): Promise<TestOidcProvider> {
  const ca = testCa();
  const accounts = new Map<string, TestAccount>();
  const clientId = 'suite-sso';
  const clientSecret = 'suite-sso-secret-0123456789abcdef0123456789';
  const otherClient = { id: 'someone-else', secret: 'someone-else-secret-0123456789abcdef012345' };
  const server: Server = createServer({ key: ca.key, cert: ca.cert });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // An issuer with a path keeps it exactly (Keycloak's `/realms/x/`, Authentik's `/application/o/app/`):
  // the provider answers under that path too.
  const prefix = (options.issuerPath ?? '').replace(/\/$/, '');
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}${options.issuerPath ?? ''}`;
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [...redirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
      {
        client_id: otherClient.id,
        client_secret: otherClient.secret,
        redirect_uris: [...redirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    claims: {
      openid: ['sub', 'hd'],
      email: ['email', 'email_verified', 'Email', 'upn'],
      profile: ['given_name', 'family_name', 'name', 'FirstName', 'LastName'],
    },
    features: { devInteractions: { enabled: true }, backchannelLogout: { enabled: true } },
    // Its back-channel logout calls go to the server under test on loopback, which the provider's
    // SSRF guard (its own dispatcher) refuses; the tests' provider posts with the plain fetch.
    ...(options.backchannelLogoutUri
      ? {
          fetch: (url: string | URL | Request, init?: RequestInit) => {
            const { dispatcher: _guard, ...plain } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
            void _guard;
            return globalThis.fetch(url, plain);
          },
        }
      : {}),
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    async findAccount(_ctx, id) {
      const account = accounts.get(id) ?? {};
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            ...(account.email === null ? {} : { email: account.email ?? id }),
            ...(account.email_verified === null ? {} : { email_verified: account.email_verified ?? true }),
            given_name: account.given_name ?? 'Ada',
            family_name: account.family_name ?? 'Lovelace',
            ...(account.hd ? { hd: account.hd } : {}),
            ...account.other,
          };
        },
      };
    },
    // Consent is given by the company for its own applications: no consent page.
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      grant.addOIDCClaims([
        'email',
        'email_verified',
        'given_name',
        'family_name',
        'name',
        'hd',
        'Email',
        'upn',
        'FirstName',
        'LastName',
      ]);
      await grant.save();
      return grant;
    },
  };
  const tamper: TestOidcProvider['tamper'] = {};
  const seen: TestOidcProvider['seen'] = { tokenRequests: 0, idTokens: [] };
  let handle: ReturnType<Provider['callback']> | undefined;
  const provider = () => {
    if (!handle) {
      for (const client of configuration.clients ?? []) client.redirect_uris = [...redirectUris];
      // Single logout, for the tests that register it (as an operator does with `sso show`'s addresses).
      const ours = configuration.clients?.[0];
      if (ours && options.backchannelLogoutUri) {
        ours.backchannel_logout_uri = options.backchannelLogoutUri();
        ours.backchannel_logout_session_required = true;
      }
      if (ours && options.postLogoutRedirectUris) ours.post_logout_redirect_uris = options.postLogoutRedirectUris;
      const made = new Provider(issuer, configuration);
      made.on('server_error', () => undefined);
      handle = made.callback();
    }
    return handle;
  };
  server.on('request', (request, response) => {
    // The development sign-in page links a web font from a public CDN; this machine reaches no such
    // host (and the browser suite fails any request off loopback), so the link is dropped.
    const end = response.end.bind(response) as (chunk?: unknown) => typeof response;
    response.end = ((chunk?: unknown) => {
      if (request.url?.startsWith('/token') && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
        seen.tokenRequests += 1;
        const body = tamper.idToken ? forgeIdToken(chunk.toString(), tamper) : chunk.toString();
        const idToken = /"id_token":"([^"]+)"/.exec(body)?.[1];
        if (idToken) seen.idTokens.push(idToken);
        response.setHeader('content-length', Buffer.byteLength(body));
        return end(body);
      }
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) {
        const html = chunk.toString();
        if (html.includes('fonts.googleapis.com')) {
          const body = html.replace(/@import url\(https:\/\/fonts\.googleapis\.com[^)]*\);/g, '');
          response.setHeader('content-length', Buffer.byteLength(body));
          return end(body);
        }
      }
      return end(chunk);
    }) as typeof response.end;
    if (prefix && request.url?.startsWith(`${prefix}/`)) request.url = request.url.slice(prefix.length);
    void provider()(request, response);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    otherClient,
    accounts,
    tamper,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The token endpoint's JSON with its ID token forged as `tamper` says (the provider's key is not used). */
function forgeIdToken(json: string, tamper: TestOidcProvider['tamper']): string {
  const body = JSON.parse(json) as { id_token?: string };
  if (!body.id_token) return json;
  const [header, payload, signature] = body.id_token.split('.') as [string, string, string];
  if (tamper.idToken === 'forge-signature') {
    const bytes = Buffer.from(signature, 'base64url');
    bytes[0] = bytes[0]! ^ 0xff;
    body.id_token = `${header}.${payload}.${bytes.toString('base64url')}`;
  } else {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    claims.email = tamper.email ?? claims.email;
    body.id_token = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
  }
  return JSON.stringify(body);
}
