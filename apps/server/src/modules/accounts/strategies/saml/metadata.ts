import { DOMParser } from './xml.js';
import type { SamlSettings } from '../../sso/connections.js';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/**
 * The settings we need from an identity provider's SAML metadata: its entity ID, its single-sign-on
 * address (HTTP-Redirect binding preferred, HTTP-POST accepted) and its signing certificates. Throws
 * an Error whose message says what is missing.
 */
export function parseIdpMetadata(xml: string): SamlSettings {
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => errors.push(message),
      fatalError: (message: string) => errors.push(message),
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length > 0 || !doc.documentElement) throw new Error(`metadata is not well-formed XML: ${errors[0] ?? ''}`);
  const entity =
    doc.documentElement.localName === 'EntityDescriptor'
      ? doc.documentElement
      : doc.getElementsByTagNameNS(MD, 'EntityDescriptor')[0];
  const entityId = entity?.getAttribute('entityID') ?? '';
  if (!entity || !entityId) throw new Error('metadata has no EntityDescriptor with an entityID');
  const idp = entity.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!idp) throw new Error('metadata has no IDPSSODescriptor (is this a service provider metadata?)');
  const services = Array.from(idp.getElementsByTagNameNS(MD, 'SingleSignOnService'));
  const service =
    services.find((s) => s.getAttribute('Binding') === REDIRECT) ??
    services.find((s) => s.getAttribute('Binding') === POST);
  const ssoUrl = service?.getAttribute('Location') ?? '';
  if (!/^https?:\/\//.test(ssoUrl))
    throw new Error('metadata has no SingleSignOnService with an HTTP-Redirect or HTTP-POST Location');
  const certificates = Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    .filter((k) => (k.getAttribute('use') ?? 'signing') === 'signing')
    .flatMap((k) => Array.from(k.getElementsByTagNameNS(DS, 'X509Certificate')))
    .map((c) => (c.textContent ?? '').replace(/\s+/g, ''))
    .filter((c) => c.length > 0);
  if (certificates.length === 0) throw new Error('metadata has no signing certificate (KeyDescriptor use="signing")');
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] };
}
