import { inflateRawSync } from 'node:zlib';
import type { CacheProvider, Profile } from '@node-saml/node-saml';
import { DOMParser } from './xml.js';
import { SAML_RESPONSE_MAX_BYTES } from '@suite/contract';
import type { SamlSettings } from '../../sso/connections.js';
import { SsoFailure } from '../sso-failure.js';
import { refuseUnusualShape, samlFor, type SamlServiceProvider } from './saml.js';

const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const quiet = { warning: () => undefined, error: () => undefined, fatalError: () => undefined };

/** A logout message as it reached our SLO endpoint, in either binding. */
export interface SloMessage {
  binding: 'redirect' | 'post';
  kind: 'request' | 'response';
  /** The base64 value of SAMLRequest or SAMLResponse. */
  value: string;
  /** HTTP-Redirect: the query's parameters and its raw text (the signature covers the raw text). */
  query?: Record<string, string>;
  rawQuery?: string;
}

/** The message's XML (HTTP-Redirect messages are deflated), bounded like a sign-in response. */
function xmlOf(message: SloMessage): string {
  const bytes = Buffer.from(message.value, 'base64');
  if (message.binding === 'post') return bytes.toString('utf8');
  try {
    return inflateRawSync(bytes, { maxOutputLength: SAML_RESPONSE_MAX_BYTES }).toString('utf8');
  } catch {
    throw new SsoFailure('invalid', 'logout message: not deflated, or too big');
  }
}

/**
 * The IdP a logout message comes from (its Issuer), read only to find the connection whose
 * certificates then check it; the message's size and shape are checked first, as for a sign-in.
 */
export function sloIssuerOf(message: SloMessage): string | null {
  const xml = xmlOf(message);
  refuseUnusualShape(Buffer.from(xml, 'utf8').toString('base64'));
  const root = new DOMParser({ errorHandler: quiet }).parseFromString(xml, 'text/xml').documentElement;
  const issuer = root
    ? Array.from(root.childNodes).find(
        (n): n is Element =>
          n.nodeType === 1 && (n as Element).namespaceURI === ASSERTION && (n as Element).localName === 'Issuer',
      )
    : undefined;
  const text = issuer?.textContent?.trim() ?? '';
  return text.length > 0 && text.length <= 1024 ? text : null;
}

/**
 * SAML single logout (SLO profile) with node-saml: our signed LogoutRequest (HTTP-Redirect) when the
 * person signs out here, and the IdP's LogoutRequest to our SLO endpoint, answered by a signed
 * LogoutResponse. A LogoutRequest must be signed by the IdP (by the query signature in HTTP-Redirect,
 * the XML signature in HTTP-POST): node-saml would accept an unsigned redirect, and anyone could then
 * end anyone's sessions.
 */
export const samlLogout = {
  /** Where the browser goes to end the IdP's session: its SLO service with our signed LogoutRequest. */
  async requestUrl(
    sp: SamlServiceProvider,
    idp: SamlSettings,
    requests: CacheProvider,
    privateKey: string,
    session: { nameId: string; nameIdFormat: string | null; sessionIndex: string | null },
  ): Promise<string> {
    const saml = await samlFor(sp, idp, requests, { privateKey });
    const user = {
      issuer: idp.entityId,
      nameID: session.nameId,
      nameIDFormat: session.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      ...(session.sessionIndex ? { sessionIndex: session.sessionIndex } : {}),
    } as Profile;
    return saml.getLogoutUrlAsync(user, '', {});
  },

  /**
   * Checks a logout message from the IdP: its signature by the IdP's certificate, issuer, times, and
   * for a response that it answers a request of ours. A request's NameID and SessionIndex say which
   * sessions to end.
   */
  async validate(
    sp: SamlServiceProvider,
    idp: SamlSettings,
    requests: CacheProvider,
    privateKey: string,
    message: SloMessage,
  ): Promise<{ kind: 'request'; profile: Profile } | { kind: 'response' }> {
    const saml = await samlFor(sp, idp, requests, { privateKey });
    try {
      if (message.binding === 'redirect') {
        if (message.kind === 'request' && !message.query?.Signature)
          throw new SsoFailure('invalid', 'unsigned LogoutRequest');
        const param = message.kind === 'request' ? 'SAMLRequest' : 'SAMLResponse';
        const { profile } = await saml.validateRedirectAsync(
          { ...message.query, [param]: message.value },
          message.rawQuery ?? '',
        );
        return message.kind === 'request' && profile ? { kind: 'request', profile } : { kind: 'response' };
      }
      if (message.kind === 'request') {
        const { profile } = await saml.validatePostRequestAsync({ SAMLRequest: message.value });
        if (!profile) throw new SsoFailure('invalid', 'LogoutRequest without a NameID');
        return { kind: 'request', profile };
      }
      // An answer to our own LogoutRequest: our session ended before the browser left, and the answer
      // only says whether the IdP's did too; nothing is done on its word.
      return { kind: 'response' };
    } catch (error) {
      if (error instanceof SsoFailure) throw error;
      throw new SsoFailure('invalid', `logout message: ${error instanceof Error ? error.message : String(error)}`);
    }
  },

  /** Our signed LogoutResponse to the IdP's request (HTTP-Redirect to its SLO service). */
  async responseUrl(
    sp: SamlServiceProvider,
    idp: SamlSettings,
    requests: CacheProvider,
    privateKey: string,
    request: Profile,
    relayState: string,
  ): Promise<string> {
    const saml = await samlFor(sp, idp, requests, { privateKey });
    return saml.getLogoutResponseUrlAsync(request, relayState, {}, true);
  },
};
