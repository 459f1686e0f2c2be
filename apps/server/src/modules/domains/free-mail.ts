import providers from 'email-providers';
import { emailDomain } from '@suite/contract';

const FREE = new Set(providers.map((d) => d.toLowerCase()));

/**
 * True when the address (or a bare domain) belongs to a free/personal mail provider. Case and a
 * trailing dot are normalised; sub-domains count too (`mail.gmail.com`), but never a bare public
 * suffix, since the list holds registrable domains only.
 */
export function isFreeMail(emailOrDomain: string): boolean {
  const domain = emailOrDomain.includes('@')
    ? emailDomain(emailOrDomain)
    : emailOrDomain.trim().toLowerCase().replace(/\.+$/, '');
  const labels = domain.split('.').filter(Boolean);
  for (let i = 0; i <= labels.length - 2; i++) {
    if (FREE.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}
