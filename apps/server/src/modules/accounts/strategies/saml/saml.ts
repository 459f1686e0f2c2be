import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import { SSO_CLOCK_SKEW_SECONDS, SSO_REQUEST_TTL_SECONDS } from '@suite/contract';
import { SsoFailure, type SsoIdentity } from '../sso-failure.js';
import type { SamlSettings } from '../../sso/connections.js';

type NodeSaml = typeof import('@node-saml/node-saml');
let loaded: Promise<NodeSaml> | undefined;
/** node-saml, loaded with the first SAML sign-in or metadata request (not at start). */
const nodeSaml = () => (loaded ??= import('@node-saml/node-saml'));

export interface SamlServiceProvider {
  /** Our entity ID, which is also our metadata's address. */
  entityId: string;
  /** The assertion consumer service (HTTP-POST binding). */
  acsUrl: string;
}

const toPem = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----`;

async function samlFor(sp: SamlServiceProvider, idp: SamlSettings, requests: CacheProvider): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await nodeSaml();
  return new SAML({
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    entryPoint: idp.ssoUrl,
    idpIssuer: idp.entityId,
    idpCert: idp.certificates.map(toPem),
    // At least one signature, by the IdP's certificate: on the response or on the assertion (node-saml
    // refuses a response with neither; with an unsigned response the assertion must be signed).
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    signatureAlgorithm: 'sha256',
    // The response must answer a request we issued and stored (any instance), once.
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SSO_REQUEST_TTL_SECONDS * 1000,
    cacheProvider: requests,
    acceptedClockSkewMs: SSO_CLOCK_SKEW_SECONDS * 1000,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    // Let the IdP choose how the person authenticates (Entra ID refuses a password-only context with MFA).
    disableRequestedAuthnContext: true,
  });
}

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const GIVEN = [
  'givenName',
  'firstName',
  'urn:oid:2.5.4.42',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
];
const FAMILY = [
  'sn',
  'lastName',
  'surname',
  'urn:oid:2.5.4.4',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
];

function attribute(profile: Profile, names: string[]): string {
  for (const name of names) {
    const value = profile[name];
    const first = Array.isArray(value) ? (value[0] as unknown) : value;
    if (typeof first === 'string' && first.trim()) return first.trim();
  }
  return '';
}

/** The request ID a SAML response answers (read before validation, to find the connection it is for). */
export function inResponseToOf(samlResponse: string): string | null {
  let xml: string;
  try {
    xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  } catch {
    return null;
  }
  const match = /<(?:[A-Za-z0-9_-]+:)?Response\b[^>]*?\sInResponseTo="([^"]{1,128})"/.exec(xml);
  return match?.[1] ?? null;
}

/**
 * The SAML 2.0 strategy (@node-saml/node-saml): SP-initiated, HTTP-Redirect to the IdP, HTTP-POST back
 * to our ACS. node-saml checks the signature (IdP certificate from its metadata), audience,
 * destination/recipient, InResponseTo against the stored request, NotBefore/NotOnOrAfter with the
 * allowed skew; the caller records the assertion ID (each accepted once).
 */
export const samlStrategy = {
  async begin(sp: SamlServiceProvider, idp: SamlSettings, requests: CacheProvider): Promise<string> {
    const saml = await samlFor(sp, idp, requests);
    try {
      return await saml.getAuthorizeUrlAsync('', undefined, {});
    } catch (error) {
      throw new SsoFailure('unavailable', `authn request: ${error instanceof Error ? error.message : String(error)}`);
    }
  },

  async complete(
    sp: SamlServiceProvider,
    idp: SamlSettings,
    requests: CacheProvider,
    samlResponse: string,
  ): Promise<SsoIdentity & { assertionId: string }> {
    const { SamlStatusError } = await nodeSaml();
    const saml = await samlFor(sp, idp, requests);
    let profile: Profile | null;
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof SamlStatusError) throw new SsoFailure('cancelled', `IdP status: ${message}`);
      if (/InResponseTo|expired|not yet valid|subject confirmation|NotBefore|NotOnOrAfter/i.test(message)) {
        throw new SsoFailure('expired', message);
      }
      throw new SsoFailure('invalid', message);
    }
    if (!profile) throw new SsoFailure('invalid', 'no profile in the response');
    // node-saml reads the status only of a response without an assertion: a refusal that still carries
    // a signed assertion must not sign anyone in.
    const status = /<(?:[A-Za-z0-9_-]+:)?StatusCode\b[^>]*\bValue="([^"]+)"/.exec(
      profile.getSamlResponseXml?.() ?? '',
    )?.[1];
    if (status !== 'urn:oasis:names:tc:SAML:2.0:status:Success') {
      throw new SsoFailure('cancelled', `IdP status: ${status ?? 'missing'}`);
    }
    const nameId = typeof profile.nameID === 'string' ? profile.nameID : '';
    const email = attribute(profile, EMAIL_ATTRIBUTES) || (nameId.includes('@') ? nameId : '');
    const assertion = profile.getAssertion?.() as { Assertion?: { $?: { ID?: string } } } | undefined;
    const assertionId = assertion?.Assertion?.$?.ID ?? profile.ID ?? '';
    if (!assertionId) throw new SsoFailure('invalid', 'assertion without an ID');
    return {
      email,
      firstName: attribute(profile, GIVEN),
      lastName: attribute(profile, FAMILY),
      subject: nameId,
      assertionId,
    };
  },

  async metadata(sp: SamlServiceProvider): Promise<string> {
    const { generateServiceProviderMetadata } = await nodeSaml();
    return generateServiceProviderMetadata({
      issuer: sp.entityId,
      callbackUrl: sp.acsUrl,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      wantAssertionsSigned: true,
    });
  },
};
