import { DOMParser } from './xml.js';

const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const quiet = { warning: () => undefined, error: () => undefined, fatalError: () => undefined };

/**
 * The issuer an unsolicited (IdP-initiated) response names, read before validation only to find the
 * connection whose certificates will then check it: the response's own Issuer, else its assertion's
 * (an encrypted assertion hides its own, so the response's is the one IdPs send). Call it after
 * refuseUnusualShape: the body's size and shape are bounded by then.
 */
export function unsolicitedIssuerOf(samlResponse: string): string | null {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const root = new DOMParser({ errorHandler: quiet }).parseFromString(xml, 'text/xml').documentElement;
  if (!root || root.localName !== 'Response') return null;
  const issuerIn = (parent: Element) =>
    Array.from(parent.childNodes).find(
      (n): n is Element =>
        n.nodeType === 1 && (n as Element).namespaceURI === ASSERTION && (n as Element).localName === 'Issuer',
    );
  const assertion = Array.from(root.childNodes).find(
    (n): n is Element => n.nodeType === 1 && (n as Element).localName === 'Assertion',
  );
  const issuer = issuerIn(root) ?? (assertion ? issuerIn(assertion) : undefined);
  const text = issuer?.textContent?.trim() ?? '';
  return text.length > 0 && text.length <= 1024 ? text : null;
}
