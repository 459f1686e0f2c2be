import { BROWSER_LABELS, SYSTEM_LABELS } from '@suite/contract/core';
import { detectBrowser } from '../../../lib/browser';

export type DeviceParts =
  | { kind: 'browser-os'; browser: string; os: string }
  | { kind: 'os'; os: string }
  | { kind: 'browser'; browser: string }
  /**
   * Not a browser the table knows, nor a system: an API client or a script ("node", "curl/8.5.0"), or no
   * User-Agent at all (every browser sends one). Named plainly, never by the header's own token.
   */
  | { kind: 'app' };

/** The system's name; for iOS, the device (what a person recognises in a list of their devices). */
function osName(ua: string, os: ReturnType<typeof detectBrowser>['os']): string | null {
  if (os === 'ios') return /iPad/.test(ua) ? 'iPad' : /iPod/.test(ua) ? 'iPod' : 'iPhone';
  return os === 'other' ? null : SYSTEM_LABELS[os];
}

/**
 * A readable summary of a session's User-Agent ("Chrome 131" + "Linux", "Safari 17" + "iPhone"), built on the
 * support check's own detection (lib/browser.ts, the contract's User-Agent table). An iPad asking for the desktop site says "Macintosh";
 * the server saw no touch points, so it is shown as macOS.
 */
export function deviceParts(userAgent: string | null): DeviceParts {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return { kind: 'app' };
  const info = detectBrowser(ua, 0);
  // The major version tells two browsers of one kind apart (a laptop's Chrome 131, an old one's Chrome 109).
  const browser =
    info.browser === 'other'
      ? null
      : info.version > 0
        ? `${BROWSER_LABELS[info.browser]} ${info.version}`
        : BROWSER_LABELS[info.browser];
  const os = osName(ua, info.os);
  if (browser && os) return { kind: 'browser-os', browser, os };
  if (browser) return { kind: 'browser', browser };
  if (os) return { kind: 'os', os };
  return { kind: 'app' };
}
