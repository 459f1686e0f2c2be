import type { CacheProvider } from '@node-saml/node-saml';
import { API, API_PREFIX, SSO_REQUEST_TTL_SECONDS } from '@suite/contract';
import type { AccountsDeps } from '../deps.js';
import { oidcLogout } from '../strategies/oidc/logout.js';
import { samlLogout, sloIssuerOf, type SloMessage } from '../strategies/saml/logout.js';
import { spKeys } from '../strategies/saml/sp-keys.js';
import type { SamlServiceProvider } from '../strategies/saml/saml.js';
import { SsoFailure } from '../strategies/sso-failure.js';
import { connectionsRepository } from './connections.js';
import { providerSessions } from './sessions.js';
import { ssoStore } from './store.js';

const REQUEST_TTL_MS = SSO_REQUEST_TTL_SECONDS * 1000;
/** Logout messages (SAML request IDs, OIDC logout token `jti`s) are remembered this long against replay. */
const REPLAY_TTL_MS = 24 * 3600_000;

/**
 * Single logout. Our sign-out of a session that came from a provider also ends the provider's session
 * (the browser is sent to its logout endpoint); a logout from the provider (SAML LogoutRequest to our
 * SLO endpoint, OIDC back-channel logout token) ends the sessions that sign-in made. Sessions live in
 * the database: revoking them there ends them on every instance at their next request.
 */
export function ssoLogoutFlow(deps: AccountsDeps) {
  const { config } = deps;
  const ring = config.keys.sso;
  const sp: SamlServiceProvider = {
    entityId: `${config.publicUrl}${API_PREFIX}${API.ssoSamlMetadata}`,
    acsUrl: `${config.publicUrl}${API_PREFIX}${API.ssoSamlAcs}`,
    sloUrl: `${config.publicUrl}${API_PREFIX}${API.ssoSamlSlo}`,
  };
  const signInPage = `${config.publicUrl}/user/login`;
  const connections = () => connectionsRepository(deps.db, ring);
  const sessions = () => providerSessions(deps.db, ring);
  const store = () => ssoStore(deps.db);
  const key = () => spKeys(deps.db, ring, sp.entityId).current();

  /** Our LogoutRequest IDs, so that the IdP's LogoutResponse must answer one of them (any instance). */
  const logoutRequests = (domain: string): CacheProvider => ({
    async saveAsync(id, value) {
      await store().saveRequest({ id, domain, protocol: 'saml', data: value, ttlMs: REQUEST_TTL_MS });
      return { value, createdAt: Date.now() };
    },
    async getAsync(id) {
      const row = await store().peekRequest(id);
      return row && row.domain === domain ? row.data : null;
    },
    async removeAsync(id) {
      return id ? ((await store().takeRequest(id))?.data ?? null) : null;
    },
  });

  async function end(rows: { sessionId: string; userId: string }[]): Promise<number> {
    let ended = 0;
    for (const row of rows) ended += await deps.sessions.revoke(row.userId, { only: row.sessionId });
    return ended;
  }

  return {
    /**
     * Where the browser goes after our sign-out of `sessionId`, so that the provider's session ends
     * too: undefined when the session did not come from a provider, or its connection has no logout
     * endpoint. A provider that cannot be reached leaves its session; ours ends all the same.
     */
    async providerLogoutUrl(sessionId: string): Promise<string | undefined> {
      const row = await sessions().of(sessionId);
      if (!row) return undefined;
      const connection = await connections().get(row.domain);
      if (!connection || connection.protocol !== row.protocol) return undefined;
      if (connection.protocol === 'saml') {
        if (!connection.settings.sloUrl) return undefined;
        return samlLogout.requestUrl(sp, connection.settings, logoutRequests(row.domain), (await key()).privateKey, {
          nameId: row.subject,
          nameIdFormat: row.nameIdFormat,
          sessionIndex: row.sessionIndex,
        });
      }
      if (!row.idToken) return undefined;
      return oidcLogout.endSessionUrl(connection, {
        idToken: sessions().openIdToken(row.idToken),
        postLogoutRedirectUri: signInPage,
      });
    },

    /**
     * A message to our SAML SLO endpoint. The IdP's LogoutRequest ends the sessions its NameID (and
     * SessionIndex, when given) made here, and is answered with our LogoutResponse; the answer to our
     * own request ends on the sign-in page.
     */
    async samlSlo(message: SloMessage, relayState: string): Promise<{ url: string; ended: number }> {
      const issuer = sloIssuerOf(message);
      const connection = issuer ? await connections().bySamlEntityId(issuer) : undefined;
      if (connection?.protocol !== 'saml') throw new SsoFailure('not-configured', 'logout message of no connection');
      const privateKey = (await key()).privateKey;
      const requests = logoutRequests(connection.domain);
      const checked = await samlLogout.validate(sp, connection.settings, requests, privateKey, message);
      if (checked.kind === 'response') return { url: `${signInPage}?signed-out=1`, ended: 0 };
      const { profile } = checked;
      if (profile.ID && !(await store().firstUse(`slo ${connection.settings.entityId} ${profile.ID}`, REPLAY_TTL_MS)))
        throw new SsoFailure('expired', 'LogoutRequest replayed');
      const indexes = typeof profile.sessionIndex === 'string' ? [profile.sessionIndex] : [];
      const ended = await end(
        await sessions().matching({
          domain: connection.domain,
          protocol: 'saml',
          subject: profile.nameID,
          sessionIndexes: indexes,
        }),
      );
      const url = await samlLogout.responseUrl(sp, connection.settings, requests, privateKey, profile, relayState);
      return { url, ended };
    },

    /** An OIDC back-channel logout token, posted by the provider for connection `connectionId`. */
    async oidcBackchannel(connectionId: string, logoutToken: string): Promise<number> {
      const connection = await connections().byId(connectionId);
      if (connection?.protocol !== 'oidc') throw new SsoFailure('not-configured', 'no OIDC connection with that id');
      const claims = await oidcLogout.verifyLogoutToken(connection, logoutToken);
      if (!(await store().firstUse(`bcl ${connection.settings.issuer} ${claims.jti}`, REPLAY_TTL_MS)))
        throw new SsoFailure('expired', 'logout token replayed');
      return end(
        await sessions().matching({
          domain: connection.domain,
          protocol: 'oidc',
          ...(claims.sub ? { subject: claims.sub } : {}),
          ...(claims.sid ? { sessionIndexes: [claims.sid] } : {}),
        }),
      );
    },
  };
}
