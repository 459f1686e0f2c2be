import { emailDomain, isAddressLiteral, normalizeEmail } from '@suite/contract';

let free: Promise<Set<string>> | undefined;
/** The email-providers list (~5k domains), loaded with the first address checked, not at start. */
const freeDomains = () =>
  (free ??= import('email-providers').then(({ default: providers }) => new Set(providers.map((d) => d.toLowerCase()))));

/**
 * True when the address (or a bare domain) belongs to a free/personal mail provider. Case and a
 * trailing dot are normalised; sub-domains count too (`mail.gmail.com`), but never a bare public
 * suffix, since the list holds registrable domains only.
 */
async function isFreeMail(emailOrDomain: string): Promise<boolean> {
  const FREE = await freeDomains();
  const domain = emailOrDomain.includes('@') ? emailDomain(emailOrDomain) : normalizeEmail(emailOrDomain);
  const labels = domain.split('.').filter(Boolean);
  for (let i = 0; i <= labels.length - 2; i++) {
    if (FREE.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

/**
 * Not an organisation's domain: a free-mail provider, or an address literal (`user@[1.2.3.4]`),
 * which names a bare host that anyone can run. Such addresses get in only with an invite for
 * exactly that address (PERSONAL profile), never invite teammates, never match a team link.
 */
export async function isPersonalAddress(emailOrDomain: string): Promise<boolean> {
  return isAddressLiteral(emailOrDomain) || isFreeMail(emailOrDomain);
}
