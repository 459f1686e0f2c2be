/**
 * "Which browser asked": a short browser and system name read from a User-Agent header, from fixed names
 * only (the header's own text never reaches a mail). Order matters: Edge, Opera and Samsung Internet
 * also say Chrome; iOS also says Mac OS X; Android also says Linux.
 */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/(?:\b|Headless)Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+ (?:Mobile\/\w+ )?Safari\//, 'Safari'],
];
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bWindows\b/, 'Windows'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** Longest header read: a real User-Agent is far shorter; a longer one is not parsed further. */
const MAX_LENGTH = 512;

export function browserOf(userAgent: string): { browser: string | null; system: string | null } {
  const ua = userAgent.slice(0, MAX_LENGTH);
  const find = (list: typeof BROWSERS) => list.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  return { browser: find(BROWSERS), system: find(SYSTEMS) };
}
