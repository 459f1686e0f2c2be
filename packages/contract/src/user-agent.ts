/**
 * The one User-Agent table: which browser and system a header names. The web's support check and
 * sessions panel and the server's mails ("which browser asked") read it, so they never disagree.
 * Only fixed names come out: the header's own text never reaches a screen or a mail through it.
 */
export type BrowserName = 'chrome' | 'firefox' | 'safari' | 'edge' | 'opera' | 'samsung' | 'other';
export type SystemName = 'windows' | 'ios' | 'android' | 'chromeos' | 'macos' | 'linux' | 'other';

/**
 * First match wins, so the order matters: Edge (EdgA on Android, EdgiOS on iOS), Opera and Samsung
 * Internet also say Chrome; every iOS browser also says Safari. The group is the major version.
 */
const BROWSERS: readonly (readonly [RegExp, Exclude<BrowserName, 'other'>, string])[] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'edge', 'Edge'],
  [/\bOPR\/(\d+)|\bOpera\b(?:.*\bVersion\/(\d+))?/, 'opera', 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'samsung', 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'firefox', 'Firefox'],
  [/(?:\b|Headless)(?:Chrome|CriOS|Chromium)\/(\d+)/, 'chrome', 'Chrome'],
  [/\bVersion\/(\d+)[\d.]* (?:Mobile\/\w+ )?Safari\//, 'safari', 'Safari'],
];

/** iOS also says "like Mac OS X"; Android and ChromeOS also say Linux. */
const SYSTEMS: readonly (readonly [RegExp, Exclude<SystemName, 'other'>, string])[] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'ios', 'iOS'],
  [/\bAndroid\b/, 'android', 'Android'],
  [/\bWindows\b/, 'windows', 'Windows'],
  [/\bCrOS\b/, 'chromeos', 'ChromeOS'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macos', 'macOS'],
  [/\bLinux\b|\bX11\b/, 'linux', 'Linux'],
];

/** Product names: the same in every language. */
export const BROWSER_LABELS = Object.fromEntries(BROWSERS.map(([, id, label]) => [id, label])) as Record<
  Exclude<BrowserName, 'other'>,
  string
>;
export const SYSTEM_LABELS = Object.fromEntries(SYSTEMS.map(([, id, label]) => [id, label])) as Record<
  Exclude<SystemName, 'other'>,
  string
>;

/** Longest header read: a real User-Agent is far shorter; a longer one is not parsed further. */
const MAX_LENGTH = 512;

export interface UserAgentInfo {
  browser: BrowserName;
  /** Major version of the browser (0 when unknown). */
  version: number;
  system: SystemName;
}

export function parseUserAgent(userAgent: string): UserAgentInfo {
  const ua = userAgent.slice(0, MAX_LENGTH);
  let browser: BrowserName = 'other';
  let version = 0;
  for (const [pattern, id] of BROWSERS) {
    const match = pattern.exec(ua);
    if (!match) continue;
    browser = id;
    version = Number(match.slice(1).find((group) => group !== undefined) ?? 0);
    break;
  }
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? 'other';
  return { browser, version, system };
}
