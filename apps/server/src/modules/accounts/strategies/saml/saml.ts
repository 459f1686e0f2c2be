import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import { DOMParser } from './xml.js';
import {
  SAML_MAX_DEPTH,
  SAML_MAX_ELEMENTS,
  SSO_CLOCK_SKEW_SECONDS,
  SSO_IDP_INITIATED_MAX_AGE_SECONDS,
  SSO_REQUEST_TTL_SECONDS,
} from '@suite/contract';
import { createHash, X509Certificate } from 'node:crypto';
import { SsoFailure, type SsoIdentity } from '../sso-failure.js';
import { namesFor, readAttribute } from '../sso-attributes.js';
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
  /** Our single logout service (HTTP-Redirect and HTTP-POST bindings). */
  sloUrl: string;
}

/** What a SAML object is made for, beyond the IdP: our key, and how a response must be bound. */
export interface SamlUse {
  /** Our current key pair's private key (decrypts assertions, signs logout messages). */
  privateKey?: string;
  forceAuthn?: boolean;
  /**
   * An IdP-initiated response: answers no request of ours, so it must be fresh instead
   * (SSO_IDP_INITIATED_MAX_AGE_SECONDS after the IdP issued it).
   */
  unsolicited?: boolean;
}

const toPem = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----`;

export async function samlFor(
  sp: SamlServiceProvider,
  idp: SamlSettings,
  requests: CacheProvider,
  use: SamlUse = {},
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
    // The response must answer a request we issued and stored (any instance), once; an unsolicited one
    // (allowed per connection) has none, and is bounded by its age instead.
    validateInResponseTo: use.unsolicited ? ValidateInResponseTo.never : ValidateInResponseTo.always,
    ...(use.unsolicited ? { maxAssertionAgeMs: SSO_IDP_INITIATED_MAX_AGE_SECONDS * 1000 } : {}),
    requestIdExpirationPeriodMs: SSO_REQUEST_TTL_SECONDS * 1000,
    cacheProvider: requests,
    acceptedClockSkewMs: SSO_CLOCK_SKEW_SECONDS * 1000,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    // Let the IdP choose how the person authenticates (Entra ID refuses a password-only context with MFA).
    disableRequestedAuthnContext: true,
    // A fresh proof asks the IdP to authenticate the person again, whatever session it has.
    forceAuthn: use.forceAuthn ?? false,
    ...(use.privateKey ? { decryptionPvk: use.privateKey, privateKey: use.privateKey } : {}),
    ...(idp.sloUrl ? { logoutUrl: idp.sloUrl, logoutCallbackUrl: sp.sloUrl } : {}),
  });
}

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
/** xmldsig's SHA-1 algorithms (RSA-SHA1, DSA-SHA1 signatures; the SHA-1 digest). */
const SHA1_ALGORITHMS = new Set([
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  'http://www.w3.org/2000/09/xmldsig#dsa-sha1',
  'http://www.w3.org/2000/09/xmldsig#sha1',
]);

/** The SHA-256 fingerprint of a certificate (base64 DER), as `sso show` prints it. */
export const certificateFingerprint = (body: string): string =>
  createHash('sha256')
    .update(Buffer.from(body.replace(/\s+/g, ''), 'base64'))
    .digest('hex');

/** When a certificate (base64 DER) ends (epoch ms), or undefined when it cannot be read. */
export function certificateExpiry(body: string): number | undefined {
  try {
    return Date.parse(new X509Certificate(Buffer.from(body, 'base64')).validTo);
  } catch {
    return undefined;
  }
}

/**
 * What a response says about itself, for the log of a refusal (names only, never values): the
 * attribute names, the NameID format, the certificates in its signatures' KeyInfo, the algorithms.
 */
interface ResponseFacts {
  attributeNames: string[];
  nameIdFormat: string;
  signingCertificates: string[];
  sha1: boolean;
}

function factsOf(xml: string): ResponseFacts {
  const root = parseXml(xml).documentElement;
  if (!root) return { attributeNames: [], nameIdFormat: '', signingCertificates: [], sha1: false };
  const all = (ns: string, name: string) => Array.from(root.getElementsByTagNameNS(ns, name));
  const algorithms = [...all(DSIG, 'SignatureMethod'), ...all(DSIG, 'DigestMethod')].map(
    (e) => e.getAttribute('Algorithm') ?? '',
  );
  return {
    attributeNames: [...new Set(all(ASSERTION, 'Attribute').map((a) => a.getAttribute('Name') ?? ''))].filter(Boolean),
    nameIdFormat: all(ASSERTION, 'NameID')[0]?.getAttribute('Format') ?? 'unspecified',
    signingCertificates: [
      ...new Set(all(DSIG, 'X509Certificate').map((c) => (c.textContent ?? '').replace(/\s+/g, ''))),
    ].filter(Boolean),
    sha1: algorithms.some((a) => SHA1_ALGORITHMS.has(a)),
  };
}

/** The log's text of what a response carried: attribute names, NameID format. */
const carried = (facts: ResponseFacts) =>
  `attributes received: ${facts.attributeNames.length ? facts.attributeNames.join(', ') : 'none'}; NameID format: ${facts.nameIdFormat}`;

/** For a bad signature: which certificate signed, against those the connection holds. */
function signatureDetail(facts: ResponseFacts, idp: SamlSettings): string {
  const held = idp.certificates.map(certificateFingerprint);
  const signed = facts.signingCertificates.map(certificateFingerprint);
  const signer = signed.length
    ? `signed with certificate SHA-256 ${signed.join(', ')}${signed.some((f) => held.includes(f)) ? '' : ' (not one the connection holds)'}`
    : 'the response names no signing certificate';
  return `${signer}; the connection holds SHA-256 ${held.join(', ')} (a rotated certificate: sso refresh, or sso set with the new metadata)`;
}

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
    const saml = await samlFor(sp, idp, requests, { forceAuthn });
    try {
      return await saml.getAuthorizeUrlAsync('', undefined, {});
    } catch (error) {
      throw new SsoFailure('unavailable', `authn request: ${error instanceof Error ? error.message : String(error)}`);
    }
  },

  /**
   * Validates the IdP's POST. `keys` are our private keys, current first: an assertion encrypted to a
   * key retired by `sso sp-key rotate` (an IdP that has not read the new metadata yet) is tried with the
   * older ones; decryption comes before node-saml uses the stored request up, so a retry is safe.
   */
  async complete(
    sp: SamlServiceProvider,
    idp: SamlSettings,
    requests: CacheProvider,
    samlResponse: string,
    use: { keys: readonly string[]; unsolicited?: boolean } = { keys: [] },
  ): Promise<
    SsoIdentity & { assertionId: string; sha1: boolean; sessionIndex: string | null; nameIdFormat: string | null }
  > {
    const { SamlStatusError } = await nodeSaml();
    const facts = factsOf(Buffer.from(samlResponse, 'base64').toString('utf8'));
    // Refused before the validator: a connection that refuses SHA-1 takes no answer signed with it.
    if (facts.sha1 && idp.sha1 === 'refuse')
      throw new SsoFailure(
        'misconfigured',
        `the IdP signs with SHA-1 (RSA-SHA1 or a SHA-1 digest), which this connection refuses: configure RSA-SHA256 at the IdP, or sso set --allow-sha1; ${carried(facts)}`,
      );
    let profile: Profile | null = null;
    const keys = use.keys.length > 0 ? use.keys : [undefined];
    // node-saml uses the stored request up on any failure; a retry with an older key must still find
    // it, so the use is deferred to the end (once, whatever the outcome).
    let used: string | null = null;
    const deferred: CacheProvider = {
      saveAsync: (key, value) => requests.saveAsync(key, value),
      getAsync: (key) => requests.getAsync(key),
      removeAsync: async (key) => {
        used = key;
        return null;
      },
    };
    try {
      for (const [index, privateKey] of keys.entries()) {
        const saml = await samlFor(sp, idp, deferred, {
          ...(privateKey ? { privateKey } : {}),
          unsolicited: use.unsolicited ?? false,
        });
        try {
          ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
          break;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (isDecryptionError(message) && index < keys.length - 1) continue;
          if (error instanceof SamlStatusError)
            throw new SsoFailure('cancelled', `IdP status: ${message}; ${carried(facts)}`);
          if (/InResponseTo|expired|not yet valid|subject confirmation|NotBefore|NotOnOrAfter/i.test(message)) {
            throw new SsoFailure('expired', `${message}; ${carried(facts)}`);
          }
          if (/signature/i.test(message))
            throw new SsoFailure('invalid', `${message}: ${signatureDetail(facts, idp)}; ${carried(facts)}`);
          throw new SsoFailure('invalid', `${message}; ${carried(facts)}`);
        }
      }
    } finally {
      if (used !== null) await requests.removeAsync(used);
    }
    if (!profile) throw new SsoFailure('invalid', 'no profile in the response');
    const checked = checkAddressing(sp, idp, profile);
    const nameId = typeof profile.nameID === 'string' ? profile.nameID : '';
    const values = (profile.attributes ?? {}) as Record<string, unknown>;
    const email = readAttribute(values, namesFor(idp.mapping, 'email')) || (nameId.includes('@') ? nameId : '');
    const assertion = profile.getAssertion?.() as { Assertion?: { $?: { ID?: string } } } | undefined;
    const assertionId = assertion?.Assertion?.$?.ID ?? profile.ID ?? '';
    if (!assertionId) throw new SsoFailure('invalid', 'assertion without an ID');
    return {
      email,
      firstName: readAttribute(values, namesFor(idp.mapping, 'firstName')),
      lastName: readAttribute(values, namesFor(idp.mapping, 'lastName')),
      issuer: idp.entityId,
      subject: nameId,
      // Only a persistent NameID names the same person on every sign-in; a transient one changes each
      // time and an e-mail one is the address itself.
      pinnable: profile.nameIDFormat === PERSISTENT && nameId.length > 0,
      ...(checked.authTime === undefined ? {} : { authTime: checked.authTime }),
      received: `${carried(facts)}`,
      assertionId,
      sha1: facts.sha1,
      sessionIndex: typeof profile.sessionIndex === 'string' ? profile.sessionIndex : null,
      nameIdFormat: typeof profile.nameIDFormat === 'string' ? profile.nameIDFormat : null,
    };
  },

  /**
   * Our SP metadata: the ACS, the single logout service, and our current certificate, for encryption
   * (IdPs encrypt assertions to it) and for signing (our logout requests are signed with it).
   */
  async metadata(sp: SamlServiceProvider, key: { privateKey: string; certificate: string }): Promise<string> {
    const { generateServiceProviderMetadata } = await nodeSaml();
    const pem = toPem(key.certificate);
    return generateServiceProviderMetadata({
      issuer: sp.entityId,
      callbackUrl: sp.acsUrl,
      logoutCallbackUrl: sp.sloUrl,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      wantAssertionsSigned: true,
      decryptionPvk: key.privateKey,
      decryptionCert: pem,
      privateKey: key.privateKey,
      publicCerts: pem,
    });
  },
};

/** node-saml's and xml-encryption's words for an assertion it could not decrypt with the key given. */
const isDecryptionError = (message: string) =>
  /decrypt|EncryptedAssertion|No decryption key|rsa routines|oaep|padding/i.test(message);
