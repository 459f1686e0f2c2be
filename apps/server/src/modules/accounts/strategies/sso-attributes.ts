import type { AttributeMapping } from '../sso/connections.js';

/**
 * The attribute (SAML) or claim (OIDC) names that carry the address and the names when the connection
 * names none, matched without regard to case: what the common providers send out of the box (Okta,
 * Google and OneLogin admins type `Email`/`FirstName`, Entra ID and ADFS send the claim URIs,
 * Shibboleth and SimpleSAMLphp the `urn:oid` names). docs/sso.md lists them.
 */
export const DEFAULT_ATTRIBUTES = {
  email: [
    'email',
    'mail',
    'emailaddress',
    'email_address',
    'User.email',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    'urn:oid:0.9.2342.19200300.100.1.3',
  ],
  firstName: [
    'given_name',
    'givenName',
    'firstName',
    'first_name',
    'User.FirstName',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    'urn:oid:2.5.4.42',
  ],
  lastName: [
    'family_name',
    'sn',
    'surname',
    'lastName',
    'last_name',
    'User.LastName',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    'urn:oid:2.5.4.4',
  ],
} as const;

export type MappedField = keyof typeof DEFAULT_ATTRIBUTES;

/** The names tried for `field`: the connection's own first, then the defaults. */
export const namesFor = (mapping: AttributeMapping | undefined, field: MappedField): string[] => [
  ...(mapping?.[field] ? [mapping[field]] : []),
  ...DEFAULT_ATTRIBUTES[field],
];

/**
 * The first non-empty text value of the first of `names` present in `values` (case-insensitive names;
 * a multi-valued attribute gives its first value).
 */
export function readAttribute(values: Record<string, unknown>, names: readonly string[]): string {
  const byLowerName = new Map<string, unknown>();
  for (const [key, value] of Object.entries(values)) {
    const lower = key.toLowerCase();
    if (!byLowerName.has(lower)) byLowerName.set(lower, value);
  }
  for (const name of names) {
    const value = byLowerName.get(name.toLowerCase());
    const first = Array.isArray(value) ? (value as unknown[]).find((v) => typeof v === 'string' && v.trim()) : value;
    if (typeof first === 'string' && first.trim()) return first.trim();
  }
  return '';
}
