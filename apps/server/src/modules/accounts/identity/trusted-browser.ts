import { API, API_PREFIX, TRUSTED_BROWSER_TTL_MS } from '@suite/contract';
import { openSignedValue, signValue, type KeyRing } from '../../../keys.js';

/**
 * "Trust this browser for 30 days": a completed sign-in with the second factor lets this browser skip
 * the second step of that account until the entry ends. The browser keeps the proof (an httpOnly
 * cookie, one entry per account, at most TRUSTED_ENTRIES); the server keeps nothing per browser. An
 * entry is `expires.generation.mac`: the MAC (keys.ts signValue) binds it to the account's id, so it
 * names no account and verifies for that one alone, and to the account's credential generation, which
 * moves with a password change or reset, "sign out of all devices", every factor change (added,
 * removed or replaced: identity/factor-changes.ts), "this wasn't me" and a deactivation
 * (sessions-repository.ts revoke): each of them voids every browser's trust at once, on every instance.
 */
export const TRUSTED_BROWSER_COOKIE = 'suite_trusted';
const PURPOSE = 'trusted-browser';
/** Accounts one browser remembers (a shared family computer): the oldest entry is dropped first. */
const TRUSTED_ENTRIES = 4;
/** Longer entries are not ours: not even looked at. */
const ENTRY_MAX = 120;

export interface TrustAccount {
  id: string;
  credential_generation: number | string;
}

const entriesOf = (cookie: string | undefined) =>
  (cookie ?? '')
    .split('~')
    .filter((entry) => entry.length > 0 && entry.length <= ENTRY_MAX)
    .slice(0, TRUSTED_ENTRIES);

/** This account's live entry of its current generation is in the cookie. */
export function browserTrusted(ring: KeyRing, cookie: string | undefined, account: TrustAccount, now = Date.now()) {
  return entriesOf(cookie).some((signed) => {
    const [expires, generation] = openSignedValue(ring, PURPOSE, signed, [account.id])?.split('.') ?? [];
    return Number(expires) > now && generation === String(Number(account.credential_generation));
  });
}

/** The cookie's new value: the account's fresh entry first, the other accounts' entries after it. */
export function trustBrowser(ring: KeyRing, cookie: string | undefined, account: TrustAccount, now = Date.now()) {
  const mine = signValue(ring, PURPOSE, `${now + TRUSTED_BROWSER_TTL_MS}.${Number(account.credential_generation)}`, [
    account.id,
  ]);
  const others = entriesOf(cookie).filter((signed) => openSignedValue(ring, PURPOSE, signed, [account.id]) === null);
  return [mine, ...others].slice(0, TRUSTED_ENTRIES).join('~');
}

/** Sent only to the password sign-in and its second step, never readable by scripts. */
export const trustedBrowserCookieOptions = (secure: boolean) => ({
  maxAge: TRUSTED_BROWSER_TTL_MS / 1000,
  path: `${API_PREFIX}${API.login}`,
  httpOnly: true,
  sameSite: 'strict' as const,
  secure,
});
