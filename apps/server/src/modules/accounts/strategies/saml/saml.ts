import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import { DOMParser } from './xml.js';
import { SAML_MAX_DEPTH, SAML_MAX_ELEMENTS, SSO_CLOCK_SKEW_SECONDS, SSO_REQUEST_TTL_SECONDS } from '@suite/contract';
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

async function samlFor(
  sp: SamlServiceProvider,
  idp: SamlSettings,
  requests: CacheProvider,
  forceAuthn = false,
): Promise<SAML> {
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
    // A fresh proof asks the IdP to authenticate the person again, whatever session it has.
    forceAuthn,
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

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

const quiet = { warning: () => undefined, error: () => undefined, fatalError: () => undefined };
const parseXml = (xml: string) => new DOMParser({ errorHandler: quiet }).parseFromString(xml, 'text/xml');
const childrenOf = (parent: Element, ns: string, name: string) =>
  Array.from(parent.childNodes).filter(
    (n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name,
  );

/**
 * What node-saml leaves to us, read from the validated XML (the assertion it checked the signature of,
 * and its response): the status, that the response was sent to our ACS (Destination), that the bearer
 * confirmation names our ACS (Recipient), and that both Issuers are the connection's IdP, so an answer
 * a customer's IdP made for another service provider, or another IdP's, is not taken here.
 */
function checkAddressing(sp: SamlServiceProvider, idp: SamlSettings, profile: Profile): { authTime?: number } {
  const response = parseXml(profile.getSamlResponseXml?.() ?? '').documentElement;
  const assertion = parseXml(profile.getAssertionXml?.() ?? '').documentElement;
  if (!response || !assertion) throw new SsoFailure('invalid', 'response or assertion unreadable');
  // node-saml reads the status only of a response without an assertion: a refusal that still carries
  // a signed assertion must not sign anyone in.
  const statusCode = childrenOf(response, PROTOCOL, 'Status')
    .flatMap((status) => childrenOf(status, PROTOCOL, 'StatusCode'))[0]
    ?.getAttribute('Value');
  if (statusCode !== SUCCESS) throw new SsoFailure('cancelled', `IdP status: ${statusCode ?? 'missing'}`);
  const destination = response.getAttribute('Destination');
  const responseSigned = childrenOf(response, DSIG, 'Signature').length > 0;
  if (destination ? destination !== sp.acsUrl : responseSigned)
    throw new SsoFailure('invalid', `Destination ${destination ?? 'missing'}`);
  const responseIssuer = childrenOf(response, ASSERTION, 'Issuer')[0]?.textContent?.trim();
  if (responseIssuer !== undefined && responseIssuer !== idp.entityId)
    throw new SsoFailure('invalid', `response Issuer ${responseIssuer}`);
  const assertionIssuer = childrenOf(assertion, ASSERTION, 'Issuer')[0]?.textContent?.trim();
  if (assertionIssuer !== idp.entityId)
    throw new SsoFailure('invalid', `assertion Issuer ${assertionIssuer ?? 'missing'}`);
  const bearer = childrenOf(assertion, ASSERTION, 'Subject')
    .flatMap((subject) => childrenOf(subject, ASSERTION, 'SubjectConfirmation'))
    .filter((c) => c.getAttribute('Method') === BEARER)
    .flatMap((c) => childrenOf(c, ASSERTION, 'SubjectConfirmationData'));
  if (bearer.length === 0 || bearer.some((data) => data.getAttribute('Recipient') !== sp.acsUrl))
    throw new SsoFailure('invalid', `Recipient ${bearer[0]?.getAttribute('Recipient') ?? 'missing'}`);
  const instant = childrenOf(assertion, ASSERTION, 'AuthnStatement')[0]?.getAttribute('AuthnInstant');
  const authTime = instant ? Math.floor(Date.parse(instant) / 1000) : NaN;
  return Number.isFinite(authTime) ? { authTime } : {};
}

/**
 * Refuses a response whose shape no IdP sends, before node-saml sees it: a DOCTYPE (entity expansion),
 * markup that is not well-formed (even where the parser only warns), more than SAML_MAX_ELEMENTS
 * elements, or nesting deeper than SAML_MAX_DEPTH. node-saml's XPath searches over the DOM grow with the
 * square of the element count, so a 56 KiB body of small elements held the event loop for seconds.
 *
 * Two passes, both linear: a scan of the text refuses the big and deep bodies cheaply; then the parser
 * node-saml itself uses (xmldom) builds the document, with its warnings as failures, and the elements
 * are counted on that tree. The count that decides is the one of the tree node-saml will search, so a
 * difference between our reading of the text and the parser's (an unquoted attribute value, an end tag
 * with nothing open) cannot let a bigger document through.
 */
export function refuseUnusualShape(samlResponse: string): void {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  scanShape(xml);
  let problem: string | null = null;
  const note = (message: string) => (problem ??= message.split('\n')[0] ?? message);
  let root: Element | null = null;
  try {
    root = new DOMParser({ errorHandler: { warning: note, error: note, fatalError: note } }).parseFromString(
      xml,
      'text/xml',
    ).documentElement;
  } catch (error) {
    note(error instanceof Error ? error.message : String(error));
  }
  if (problem !== null || !root) throw new SsoFailure('invalid', `response shape: not well-formed (${problem})`);
  let elements = 0;
  const stack: [Element, number][] = [[root, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [element, depth] = next;
    elements += 1;
    if (elements > SAML_MAX_ELEMENTS)
      throw new SsoFailure('invalid', `response shape: more than ${SAML_MAX_ELEMENTS} elements`);
    if (depth > SAML_MAX_DEPTH) throw new SsoFailure('invalid', `response shape: nested deeper than ${SAML_MAX_DEPTH}`);
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 1) stack.push([child as Element, depth + 1]);
    }
  }
}

/** The cheap first pass over the text: every index only moves on. */
function scanShape(xml: string): void {
  let elements = 0;
  let depth = 0;
  let at = xml.indexOf('<');
  while (at >= 0) {
    let end: number;
    if (xml.startsWith('<!--', at)) end = closeOf(xml, '-->', at + 4);
    else if (xml.startsWith('<?', at)) end = closeOf(xml, '?>', at + 2);
    else if (xml.startsWith('<![CDATA[', at)) end = closeOf(xml, ']]>', at + 9);
    else if (xml.startsWith('<!', at)) throw new SsoFailure('invalid', 'response shape: a DOCTYPE or declaration');
    else if (xml.startsWith('</', at)) {
      end = closeOf(xml, '>', at + 2);
      depth -= 1;
      if (depth < 0) throw new SsoFailure('invalid', 'response shape: an end tag with nothing open');
    } else {
      end = tagEnd(xml, at + 1);
      elements += 1;
      if (xml[end - 1] !== '/') depth += 1;
      if (elements > SAML_MAX_ELEMENTS)
        throw new SsoFailure('invalid', `response shape: more than ${SAML_MAX_ELEMENTS} elements`);
      if (depth > SAML_MAX_DEPTH)
        throw new SsoFailure('invalid', `response shape: nested deeper than ${SAML_MAX_DEPTH}`);
    }
    at = xml.indexOf('<', end + 1);
  }
}

/** The index of `close` (its last character) from `from` on; a construct never closed is refused. */
function closeOf(xml: string, close: string, from: number): number {
  const found = xml.indexOf(close, from);
  if (found < 0) throw new SsoFailure('invalid', 'response shape: unterminated markup');
  return found + close.length - 1;
}

/**
 * The index of the `>` ending a start tag that begins at `from`. A quote opens a value only right after
 * `=` (spaces allowed), as in XML; an attribute value without quotes is not XML and is refused.
 */
function tagEnd(xml: string, from: number): number {
  let quote = '';
  let afterEquals = false;
  for (let i = from; i < xml.length; i += 1) {
    const c = xml[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (afterEquals) {
      if (c === '"' || c === "'") {
        quote = c;
        afterEquals = false;
      } else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r')
        throw new SsoFailure('invalid', 'response shape: an attribute value without quotes');
    } else if (c === '=') afterEquals = true;
    else if (c === '>') return i;
  }
  throw new SsoFailure('invalid', 'response shape: unterminated markup');
}

/**
 * The request ID a SAML response answers (read before validation, to find the connection it is for).
 * The input is an anonymous POST: one forward pass over the root element's start tag, never a regex
 * that can backtrack over attacker input (a body of repeated `<Response ` made one cost O(n²)).
 */
export function inResponseToOf(samlResponse: string): string | null {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const tag = rootStartTag(xml);
  if (!tag) return null;
  const name = /^[^\s/>]+/.exec(tag)?.[0] ?? '';
  if (name !== 'Response' && !name.endsWith(':Response')) return null;
  return attributeOf(tag, 'InResponseTo');
}

/** The root element's start tag without its `<` (prolog, comments and doctype skipped), or null. */
function rootStartTag(xml: string): string | null {
  let at = 0;
  for (;;) {
    at = xml.indexOf('<', at);
    if (at < 0) return null;
    if (xml.startsWith('<?', at)) at = xml.indexOf('?>', at + 2);
    else if (xml.startsWith('<!--', at)) at = xml.indexOf('-->', at + 4);
    else if (xml.startsWith('<!', at)) at = xml.indexOf('>', at + 2);
    else break;
    if (at < 0) return null;
  }
  // The tag ends at the first `>` outside a quoted attribute value.
  let quote = '';
  for (let i = at + 1; i < xml.length; i += 1) {
    const c = xml[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return xml.slice(at + 1, i);
  }
  return null;
}

/** An attribute's value in a start tag (one pass; at most 128 characters, like a request ID). */
function attributeOf(tag: string, name: string): string | null {
  let i = 0;
  while (i < tag.length) {
    const eq = tag.indexOf('=', i);
    if (eq < 0) return null;
    const key = tag.slice(i, eq).trim().split(/\s/).pop() ?? '';
    const quote = tag[eq + 1];
    if (quote !== '"' && quote !== "'") return null;
    const end = tag.indexOf(quote, eq + 2);
    if (end < 0) return null;
    if (key === name) {
      const value = tag.slice(eq + 2, end);
      return value.length > 0 && value.length <= 128 ? value : null;
    }
    i = end + 1;
  }
  return null;
}

/**
 * The SAML 2.0 strategy (@node-saml/node-saml): SP-initiated, HTTP-Redirect to the IdP, HTTP-POST back
 * to our ACS. node-saml checks the signature (IdP certificate from its metadata), audience,
 * destination/recipient, InResponseTo against the stored request, NotBefore/NotOnOrAfter with the
 * allowed skew; the caller records the assertion ID (each accepted once).
 */
export const samlStrategy = {
  async begin(
    sp: SamlServiceProvider,
    idp: SamlSettings,
    requests: CacheProvider,
    forceAuthn = false,
  ): Promise<string> {
    const saml = await samlFor(sp, idp, requests, forceAuthn);
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
    const checked = checkAddressing(sp, idp, profile);
    const nameId = typeof profile.nameID === 'string' ? profile.nameID : '';
    const email = attribute(profile, EMAIL_ATTRIBUTES) || (nameId.includes('@') ? nameId : '');
    const assertion = profile.getAssertion?.() as { Assertion?: { $?: { ID?: string } } } | undefined;
    const assertionId = assertion?.Assertion?.$?.ID ?? profile.ID ?? '';
    if (!assertionId) throw new SsoFailure('invalid', 'assertion without an ID');
    return {
      email,
      firstName: attribute(profile, GIVEN),
      lastName: attribute(profile, FAMILY),
      issuer: idp.entityId,
      subject: nameId,
      // Only a persistent NameID names the same person on every sign-in; a transient one changes each
      // time and an e-mail one is the address itself.
      pinnable: profile.nameIDFormat === PERSISTENT && nameId.length > 0,
      ...(checked.authTime === undefined ? {} : { authTime: checked.authTime }),
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
