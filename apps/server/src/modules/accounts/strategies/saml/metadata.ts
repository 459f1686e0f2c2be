import { DOMParser } from './xml.js';
import type { SamlSettings } from '../../sso/connections.js';
import { describeError } from '../sso-failure.js';

/** Seconds a metadata URL may take to answer. */
const METADATA_TIMEOUT_MS = 10_000;
/** A metadata document bigger than this is refused (a national federation's file is a few MiB). */
const METADATA_MAX_BYTES = 16 * 1024 * 1024;

/**
 * An IdP's metadata from its https URL. Throws an Error naming the cause: the HTTP status, or the
 * network or TLS problem under fetch's bare `fetch failed` (with what to do about an untrusted chain).
 */
export async function fetchIdpMetadata(url: string): Promise<string> {
  if (!/^https:\/\//.test(url))
    throw new Error(`metadata URL ${url}: only https:// (an http answer could be altered on the way)`);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(METADATA_TIMEOUT_MS), redirect: 'follow' });
  } catch (error) {
    throw new Error(`metadata URL ${url} could not be read: ${describeError(error)}`);
  }
  if (!response.ok) throw new Error(`metadata URL ${url} answered HTTP ${response.status} ${response.statusText}`);
  const text = await response.text();
  if (text.length > METADATA_MAX_BYTES) throw new Error(`metadata URL ${url} answered more than 16 MiB`);
  return text;
}

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** What a metadata document gives: the provider's own settings (the operator's choices are added to it). */
export type IdpMetadata = Pick<SamlSettings, 'entityId' | 'ssoUrl' | 'certificates'>;

/**
 * The settings we need from an identity provider's SAML metadata: its entity ID, its single-sign-on
 * address (HTTP-Redirect binding preferred, HTTP-POST accepted) and its signing certificates. A
 * federation's metadata (EntitiesDescriptor) holds many entities: `entityId` picks one (required when
 * more than one is an IdP). Throws an Error whose message says what is missing.
 */
export function parseIdpMetadata(xml: string, entityId?: string): IdpMetadata {
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => errors.push(message),
      fatalError: (message: string) => errors.push(message),
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length > 0 || !doc.documentElement) throw new Error(`metadata is not well-formed XML: ${errors[0] ?? ''}`);
  const entities =
    doc.documentElement.localName === 'EntityDescriptor'
      ? [doc.documentElement]
      : Array.from(doc.getElementsByTagNameNS(MD, 'EntityDescriptor'));
  const idps = entities.filter((e) => e.getElementsByTagNameNS(MD, 'IDPSSODescriptor').length > 0);
  let entity: Element | undefined;
  if (entityId !== undefined) {
    entity = entities.find((e) => e.getAttribute('entityID') === entityId);
    if (!entity)
      throw new Error(
        `metadata has no entity ${entityId} (it has ${entities.length}: ${entities
          .slice(0, 5)
          .map((e) => e.getAttribute('entityID'))
          .join(', ')}${entities.length > 5 ? ', …' : ''})`,
      );
  } else if (idps.length > 1) {
    throw new Error(
      `metadata holds ${idps.length} identity providers (a federation file): pick one with --entity-id (${idps
        .slice(0, 5)
        .map((e) => e.getAttribute('entityID'))
        .join(', ')}${idps.length > 5 ? ', …' : ''})`,
    );
  } else entity = idps[0] ?? entities[0];
  const foundId = entity?.getAttribute('entityID') ?? '';
  if (!entity || !foundId) throw new Error('metadata has no EntityDescriptor with an entityID');
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
  // Single logout is optional: without it, our sign-out ends only our session.
  const sloUrl = Array.from(idp.getElementsByTagNameNS(MD, 'SingleLogoutService'))
    .find((s) => s.getAttribute('Binding') === REDIRECT)
    ?.getAttribute('Location');
  return {
    entityId: foundId,
    ssoUrl,
    certificates: [...new Set(certificates)],
    ...(sloUrl && /^https?:\/\//.test(sloUrl) ? { sloUrl } : {}),
  };
}
