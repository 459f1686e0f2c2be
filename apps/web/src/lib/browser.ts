import { parseUserAgent, type BrowserName, type SystemName } from '@suite/contract/core';

/**
 * Browser and OS detection for the support check, the supported-browser page and the app offer, by the
 * contract's one User-Agent table (the server's mails name browsers by the same one).
 */
export type { BrowserName };
export type Os = SystemName;

export interface BrowserInfo {
  os: Os;
  browser: BrowserName;
  version: number;
  mobile: boolean;
}

export function detectBrowser(
  ua: string = navigator.userAgent,
  maxTouchPoints = navigator.maxTouchPoints ?? 0,
): BrowserInfo {
  const { browser, version, system } = parseUserAgent(ua);
  // iPadOS asks for the desktop site as a Mac; only its touch points tell (not in the header).
  const os: Os = system === 'macos' && /Macintosh/.test(ua) && maxTouchPoints > 1 ? 'ios' : system;
  const mobile = os === 'ios' || os === 'android' || /Mobi/.test(ua);
  return { os, browser, version, mobile };
}

/** Minimum versions we homologate (WebRTC and modern JS the meeting room needs). */
const MINIMUM: Partial<Record<BrowserName, number>> = {
  chrome: 109,
  edge: 109,
  firefox: 115,
  safari: 16,
  opera: 95,
  samsung: 20,
};

export function isSupportedBrowser(info: BrowserInfo = detectBrowser()): boolean {
  // Every iOS browser runs Safari's engine: these are known to run the meeting room there.
  if (info.os === 'ios') return ['safari', 'chrome', 'firefox', 'edge'].includes(info.browser);
  const minimum = MINIMUM[info.browser];
  return minimum !== undefined && info.version >= minimum;
}

/** Spec §2: macOS → Chrome, Firefox, Safari; iOS → Safari only; others → Chrome and Firefox. */
export function suggestedBrowsers(os: Os): BrowserName[] {
  if (os === 'ios') return ['safari'];
  if (os === 'macos') return ['chrome', 'firefox', 'safari'];
  return ['chrome', 'firefox'];
}
