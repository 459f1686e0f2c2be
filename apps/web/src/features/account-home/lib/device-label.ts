import { detectBrowser, type BrowserName } from '../../../lib/browser';

/** Product names: the same in every language. */
const BROWSERS: Record<Exclude<BrowserName, 'other'>, string> = {
  chrome: 'Chrome',
  firefox: 'Firefox',
  safari: 'Safari',
  edge: 'Edge',
  opera: 'Opera',
  samsung: 'Samsung Internet',
};

export type DeviceParts =
  | { kind: 'unknown' }
  | { kind: 'browser-os'; browser: string; os: string }
  | { kind: 'os'; os: string }
  | { kind: 'browser'; browser: string }
  /** Not a browser we know (an API client, a script): its first product token, e.g. `curl/8.5.0`. */
  | { kind: 'raw'; text: string };

function osName(ua: string, os: ReturnType<typeof detectBrowser>['os']): string | null {
  switch (os) {
    case 'ios':
      return /iPad/.test(ua) ? 'iPad' : /iPod/.test(ua) ? 'iPod' : 'iPhone';
    case 'android':
      return 'Android';
    case 'macos':
      return 'macOS';
    case 'windows':
      return 'Windows';
    case 'linux':
      return /CrOS/.test(ua) ? 'ChromeOS' : 'Linux';
    default:
      return null;
  }
}

/**
 * A readable summary of a session's User-Agent ("Chrome" + "Linux", "Safari" + "iPhone"), built on the
 * support check's own detection (lib/browser.ts). An iPad asking for the desktop site says "Macintosh";
 * the server saw no touch points, so it is shown as macOS.
 */
export function deviceParts(userAgent: string | null): DeviceParts {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return { kind: 'unknown' };
  const info = detectBrowser(ua, 0);
  const browser = info.browser === 'other' ? null : BROWSERS[info.browser];
  const os = osName(ua, info.os);
  if (browser && os) return { kind: 'browser-os', browser, os };
  if (browser) return { kind: 'browser', browser };
  if (os) return { kind: 'os', os };
  return { kind: 'raw', text: (ua.split(/\s/)[0] ?? ua).slice(0, 40) };
}
