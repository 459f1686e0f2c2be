/** Browser and OS detection for the support check, the supported-browser page and the app offer. */
export type Os = 'macos' | 'ios' | 'android' | 'windows' | 'linux' | 'other';
export type BrowserName = 'chrome' | 'firefox' | 'safari' | 'edge' | 'opera' | 'samsung' | 'other';

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
  const ipadOs = /Macintosh/.test(ua) && maxTouchPoints > 1;
  const os: Os =
    /iPhone|iPad|iPod/.test(ua) || ipadOs
      ? 'ios'
      : /Android/.test(ua)
        ? 'android'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macos'
          : /Windows/.test(ua)
            ? 'windows'
            : /Linux|X11|CrOS/.test(ua)
              ? 'linux'
              : 'other';
  const mobile = os === 'ios' || os === 'android' || /Mobi/.test(ua);
  const match = (re: RegExp) => Number(re.exec(ua)?.[1] ?? 0);
  let browser: BrowserName = 'other';
  let version = 0;
  if (/Edg\//.test(ua)) [browser, version] = ['edge', match(/Edg\/(\d+)/)];
  else if (/OPR\//.test(ua)) [browser, version] = ['opera', match(/OPR\/(\d+)/)];
  else if (/SamsungBrowser\//.test(ua)) [browser, version] = ['samsung', match(/SamsungBrowser\/(\d+)/)];
  else if (/(Firefox|FxiOS)\//.test(ua)) [browser, version] = ['firefox', match(/(?:Firefox|FxiOS)\/(\d+)/)];
  else if (/(Chrome|CriOS|Chromium)\//.test(ua))
    [browser, version] = ['chrome', match(/(?:Chrome|CriOS|Chromium)\/(\d+)/)];
  else if (/Safari\//.test(ua) && /Version\//.test(ua)) [browser, version] = ['safari', match(/Version\/(\d+)/)];
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
  if (info.os === 'ios') return info.browser === 'safari' || info.browser === 'chrome' || info.browser === 'firefox';
  const minimum = MINIMUM[info.browser];
  return minimum !== undefined && info.version >= minimum;
}

/** Spec §2: macOS → Chrome, Firefox, Safari; iOS → Safari only; others → Chrome and Firefox. */
export function suggestedBrowsers(os: Os): BrowserName[] {
  if (os === 'ios') return ['safari'];
  if (os === 'macos') return ['chrome', 'firefox', 'safari'];
  return ['chrome', 'firefox'];
}
