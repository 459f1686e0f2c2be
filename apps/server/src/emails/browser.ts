import { BROWSER_LABELS, SYSTEM_LABELS, parseUserAgent } from '@suite/contract';

/**
 * "Which browser asked": a short browser and system name read from a User-Agent header by the
 * contract's one table (the web's sessions panel names the same), fixed names only.
 */
export function browserOf(userAgent: string): { browser: string | null; system: string | null } {
  const { browser, system } = parseUserAgent(userAgent);
  return {
    browser: browser === 'other' ? null : BROWSER_LABELS[browser],
    system: system === 'other' ? null : SYSTEM_LABELS[system],
  };
}
