import { createHash, randomBytes } from 'node:crypto';
import type { CacheProvider } from '@node-saml/node-saml';
import {
  API,
  API_PREFIX,
  HANDOFF_TTL_SECONDS,
  SSO_REQUEST_TTL_SECONDS,
  emailDomain,
  isEmailShape,
  cleanDisplayName,
  normalizeEmail,
  type Language,
  type SessionResponse,
  type SsoDiscoverResponse,
} from '@suite/contract';
import { AppError } from '../../../errors.js';
import { openSignedValue, sameSecret, signValue } from '../../../keys.js';
import type { AccountsDeps } from '../deps.js';
import { domainsRepository } from '../domains/repository.js';
import { usersRepository, type UserRow } from '../identity/repository.js';
import { finishWithSession } from '../login/finish.js';
import { oidcStrategy, type OidcPending } from '../strategies/oidc/oidc.js';
import { inResponseToOf, samlStrategy, type SamlServiceProvider } from '../strategies/saml/saml.js';
import { SsoFailure, type SsoIdentity } from '../strategies/sso-failure.js';
import { connectionsRepository, type Connection } from './connections.js';
import { ssoStore } from './store.js';

/** Where a sign-in started with a provider goes next (the routes turn it into a 302). */
export type SsoStart = { kind: 'redirect'; url: string; binding?: string } | { kind: 'not-configured' };

const REQUEST_TTL_MS = SSO_REQUEST_TTL_SECONDS * 1000;
/** Accepted assertion IDs are remembered well past any assertion's validity window. */
const REPLAY_TTL_MS = 24 * 3600_000;

/** The signed-value purpose of the browser-binding cookie: no other signed value passes for it. */
const BINDING_PURPOSE = 'sso-binding';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The single-sign-on flow (issue 24): home-realm discovery from the address's domain, the start of a
 * sign-in with the domain's provider, the provider's return (OIDC callback, SAML ACS), the account, and
 * the single-use hand-off of the session to the web app's /auth page. The strategies
 * (strategies/oidc, strategies/saml) speak the protocols; this decides who may come in.
 */
export function ssoFlow(deps: AccountsDeps) {
  const { config } = deps;
  const ring = config.keys.sso;
  const connections = () => connectionsRepository(deps.db, ring);
  const store = () => ssoStore(deps.db);
  const sp: SamlServiceProvider = {
    entityId: `${config.publicUrl}${API_PREFIX}${API.ssoSamlMetadata}`,
    acsUrl: `${config.publicUrl}${API_PREFIX}${API.ssoSamlAcs}`,
  };
  const oidcRedirectUri = `${config.publicUrl}${API_PREFIX}${API.ssoOidcCallback}`;

  /** node-saml's request-ID cache, kept in the database so that any instance can take the answer. */
  const samlRequests = (domain: string): CacheProvider => ({
    async saveAsync(key, value) {
      await store().saveRequest({ id: key, domain, protocol: 'saml', data: value, ttlMs: REQUEST_TTL_MS });
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      const row = await store().peekRequest(key);
      return row && row.domain === domain && row.protocol === 'saml' ? row.data : null;
    },
    async removeAsync(key) {
      if (!key) return null;
      return (await store().takeRequest(key))?.data ?? null;
    },
  });

  /** The browser-binding cookie's value: random, signed (keys.ts signValue); the request row keeps its SHA-256. */
  function newBinding(): { cookie: string; hash: string } {
    const value = randomBytes(24).toString('base64url');
    return { cookie: signValue(ring, BINDING_PURPOSE, value), hash: sha256(value) };
  }
  function bindingMatches(cookie: string | undefined, hash: string): boolean {
    const value = openSignedValue(ring, BINDING_PURPOSE, cookie);
    return value !== null && sameSecret(sha256(value), hash);
  }

  /** The account the provider vouched for: created on its first sign-in, never with a password. */
  async function accountFor(domain: string, identity: SsoIdentity, language: Language): Promise<UserRow> {
    const email = normalizeEmail(identity.email);
    if (!isEmailShape(email)) throw new SsoFailure('invalid', 'the provider sent no usable e-mail address');
    if (emailDomain(email) !== domain) throw new SsoFailure('foreign', `address of ${emailDomain(email)}`);
    if (!(await domainsRepository(deps.db).rules(domain)).active) throw new SsoFailure('inactive', 'domain inactive');
    return deps.db.transaction().execute(async (trx) => {
      const users = usersRepository(trx);
      let user = await users.byEmail(email);
      if (!user) {
        const id = await users.create({
          email,
          domain,
          language,
          profileType: 'PROFESSIONAL',
          confirmed: true,
          invitedBy: null,
        });
        // Names from the provider's claims or attributes, under the one name rule (cleaned, not refused).
        const first = cleanDisplayName(identity.firstName) || cleanDisplayName(email.split('@')[0] ?? '');
        await users.setNames(id, first, cleanDisplayName(identity.lastName));
        user = (await users.byId(id))!;
      } else if (!user.confirmed_at) {
        // The provider vouches for the mailbox: the e-mailed code is not needed any more.
        await users.markConfirmed(user.id);
        user = (await users.byId(user.id))!;
      }
      if (!user.active) throw new SsoFailure('inactive', 'account deactivated');
      return user;
    });
  }

  async function handOff(user: UserRow, device: string | null): Promise<string> {
    const token = await store().createHandoff({
      userId: user.id,
      method: 'sso',
      device,
      ttlMs: HANDOFF_TTL_SECONDS * 1000,
    });
    return `${config.publicUrl}/auth?handoff=${encodeURIComponent(token)}`;
  }

  return {
    /** Does the address's domain sign in with single sign-on? Says nothing about the account. */
    async discover(address: string): Promise<SsoDiscoverResponse> {
      const email = normalizeEmail(address);
      if (!isEmailShape(email)) return { sso: 'none' };
      const domain = emailDomain(email);
      const [rules, connected] = await Promise.all([
        domainsRepository(deps.db).rules(domain),
        connections().exists(domain),
      ]);
      if (rules.ssoOnly) return { sso: 'required' };
      return { sso: connected ? 'available' : 'none' };
    },

    async start(address: string): Promise<SsoStart> {
      const email = normalizeEmail(address);
      if (!isEmailShape(email)) return { kind: 'not-configured' };
      const domain = emailDomain(email);
      const connection = await connections().get(domain);
      if (!connection) return { kind: 'not-configured' };
      if (connection.protocol === 'saml') {
        return { kind: 'redirect', url: await samlStrategy.begin(sp, connection.settings, samlRequests(domain)) };
      }
      const begun = await oidcStrategy.begin(connection, { redirectUri: oidcRedirectUri, loginHint: email });
      const binding = newBinding();
      await store().saveRequest({
        id: begun.state,
        domain,
        protocol: 'oidc',
        data: JSON.stringify({ ...begun.pending, binding: binding.hash }),
        ttlMs: REQUEST_TTL_MS,
      });
      return { kind: 'redirect', url: begun.url, binding: binding.cookie };
    },

    /** The provider's return to PUBLIC_URL/api/sso/oidc/callback; answers the /auth hand-off address. */
    async oidcCallback(input: {
      query: Record<string, string>;
      binding: string | undefined;
      language: Language;
      device: string | null;
    }): Promise<string> {
      const state = input.query.state ?? '';
      const request = state ? await store().takeRequest(state) : undefined;
      if (!request || request.protocol !== 'oidc') {
        throw new SsoFailure('expired', state ? 'unknown, used or expired state' : 'no state');
      }
      const pending = JSON.parse(request.data) as OidcPending & { binding: string };
      if (!bindingMatches(input.binding, pending.binding)) {
        throw new SsoFailure('invalid', 'state not bound to this browser');
      }
      const connection = await connections().get(request.domain);
      if (connection?.protocol !== 'oidc')
        throw new SsoFailure('not-configured', `no OIDC connection for ${request.domain}`);
      // The address the provider sent the browser to, rebuilt from PUBLIC_URL (never the Host header).
      const callbackUrl = new URL(oidcRedirectUri);
      for (const [key, value] of Object.entries(input.query)) callbackUrl.searchParams.set(key, value);
      const identity = await oidcStrategy.complete(connection, { callbackUrl, state, pending });
      return handOff(await accountFor(request.domain, identity, input.language), input.device);
    },

    /** The IdP's HTTP-POST to PUBLIC_URL/api/sso/saml/acs; answers the /auth hand-off address. */
    async samlAcs(input: { samlResponse: string; language: Language; device: string | null }): Promise<string> {
      const requestId = inResponseToOf(input.samlResponse);
      const request = requestId ? await store().peekRequest(requestId) : undefined;
      if (!request || request.protocol !== 'saml') {
        throw new SsoFailure('expired', requestId ? 'unknown, used or expired request ID' : 'unsolicited response');
      }
      const connection: Connection | undefined = await connections().get(request.domain);
      if (connection?.protocol !== 'saml')
        throw new SsoFailure('not-configured', `no SAML connection for ${request.domain}`);
      const identity = await samlStrategy.complete(
        sp,
        connection.settings,
        samlRequests(request.domain),
        input.samlResponse,
      );
      if (!(await store().firstUse(`${connection.settings.entityId} ${identity.assertionId}`, REPLAY_TTL_MS))) {
        throw new SsoFailure('expired', 'assertion replayed');
      }
      return handOff(await accountFor(request.domain, identity, input.language), input.device);
    },

    samlMetadata: () => samlStrategy.metadata(sp),

    /** The /auth page's exchange: a single-use hand-off token for the session it stands for. */
    async exchange(token: string, device: string | null): Promise<SessionResponse> {
      const row = await store().takeHandoff(token);
      if (!row) throw new AppError('ERR_HANDOFF_INVALID');
      const user = await usersRepository(deps.db).byId(row.user_id);
      if (!user) throw new AppError('ERR_HANDOFF_INVALID');
      return finishWithSession(deps, user, { method: 'sso', device: device ?? row.device });
    },
  };
}
