import type { JWTVerifyGetKey } from 'jose';
import { SSO_CLOCK_SKEW_SECONDS } from '@suite/contract';
import { loadJose } from '../../../../keys.js';
import { SsoFailure } from '../sso-failure.js';
import { openid, providerOf, type OidcConnectionRef } from './oidc.js';

const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** A logout token is acted on only this soon after the provider issued it. */
const LOGOUT_TOKEN_MAX_AGE_S = 300;

/** The provider's published keys, fetched again by jose when a token names a key it has not seen. */
const keySets = new Map<string, JWTVerifyGetKey>();

/**
 * OpenID Connect single logout: RP-initiated logout (the browser goes to the provider's
 * end_session_endpoint with our ID token as id_token_hint) and back-channel logout (the provider posts a
 * logout token, a JWT signed like its ID tokens, naming the person `sub` and/or its session `sid`).
 */
export const oidcLogout = {
  /** The provider's logout address for this session, or undefined when it publishes none. */
  async endSessionUrl(
    connection: OidcConnectionRef,
    input: { idToken: string; postLogoutRedirectUri: string },
  ): Promise<string | undefined> {
    const client = await openid();
    const config = await providerOf(connection);
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(config, {
      id_token_hint: input.idToken,
      post_logout_redirect_uri: input.postLogoutRedirectUri,
    }).href;
  },

  /**
   * Checks a back-channel logout token (OIDC Back-Channel Logout 1.0, 2.6): signed by the provider's
   * keys, issued by it for our client, recent, with the logout event, no nonce, a `jti`, and `sub` or `sid`.
   */
  async verifyLogoutToken(
    connection: OidcConnectionRef,
    token: string,
  ): Promise<{ jti: string; sub?: string; sid?: string }> {
    const config = await providerOf(connection);
    const provider = config.serverMetadata();
    if (!provider.jwks_uri) throw new SsoFailure('invalid', 'provider publishes no jwks_uri');
    const { createRemoteJWKSet, jwtVerify } = await loadJose();
    let keys = keySets.get(provider.jwks_uri);
    if (!keys) keySets.set(provider.jwks_uri, (keys = createRemoteJWKSet(new URL(provider.jwks_uri))));
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: provider.issuer,
        audience: connection.settings.clientId,
        maxTokenAge: LOGOUT_TOKEN_MAX_AGE_S,
        clockTolerance: SSO_CLOCK_SKEW_SECONDS,
        requiredClaims: ['iat', 'jti'],
      }));
    } catch (error) {
      throw new SsoFailure('invalid', `logout token: ${error instanceof Error ? error.message : String(error)}`);
    }
    const events = payload.events as Record<string, unknown> | undefined;
    if (!events || typeof events[BACKCHANNEL_EVENT] !== 'object')
      throw new SsoFailure('invalid', 'logout token without the back-channel logout event');
    if (payload.nonce !== undefined) throw new SsoFailure('invalid', 'logout token with a nonce');
    const sub = typeof payload.sub === 'string' && payload.sub ? payload.sub : undefined;
    const sid = typeof payload.sid === 'string' && payload.sid ? payload.sid : undefined;
    if (!sub && !sid) throw new SsoFailure('invalid', 'logout token names neither sub nor sid');
    return { jti: String(payload.jti), ...(sub ? { sub } : {}), ...(sid ? { sid } : {}) };
  },
};
