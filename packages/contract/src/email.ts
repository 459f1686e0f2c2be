/**
 * The spec's e-mail shape (§5): local part, @, a domain whose top-level part has at least two
 * letters, or a bracketed IPv4 literal. Empty counts as valid (required-ness is separate).
 */
const LOCAL = String.raw`[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]+)*`;
const DOMAIN = String.raw`(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,}`;
const OCTET = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;
const IPV4 = String.raw`\[${OCTET}(?:\.${OCTET}){3}\]`;
export const EMAIL_PATTERN = new RegExp(`^${LOCAL}@(?:${DOMAIN}|${IPV4})$`);
export const EMAIL_MAX_LENGTH = 254;

export function isEmailShape(value: string): boolean {
  if (value === '') return true;
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

/**
 * Lower-cased, trimmed, every trailing dot of the domain removed: the one canonical form we store,
 * compare and key rate limits on (`a@x.com..` and `a@x.com.` are `a@x.com`).
 */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase().replace(/\.+$/, '');
}

/** A bracketed address literal (`user@[1.2.3.4]`): a mailbox on a bare host, never an organisation's domain. */
export function isAddressLiteral(emailOrDomain: string): boolean {
  const domain = emailOrDomain.includes('@') ? emailDomain(emailOrDomain) : normalizeEmail(emailOrDomain);
  return domain.startsWith('[') && domain.endsWith(']');
}

export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : normalizeEmail(email.slice(at + 1));
}
