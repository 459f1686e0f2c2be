import { describe, expect, it } from 'vitest';
import { BROWSER_LABELS, SYSTEM_LABELS, parseUserAgent } from './user-agent.js';

/** Headers as the browsers send them; the disputed ones first (Edge says Chrome too, iOS says Mac OS X). */
const CASES: [string, string, ReturnType<typeof parseUserAgent>][] = [
  [
    'Edge for Android',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
    { browser: 'edge', version: 131, system: 'android' },
  ],
  [
    'Edge for iOS',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/131.0.2903.68 Mobile/15E148 Safari/605.1.15',
    { browser: 'edge', version: 131, system: 'ios' },
  ],
  [
    'Edge on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    { browser: 'edge', version: 131, system: 'windows' },
  ],
  [
    'Opera for Android',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36 OPR/85.0.0.0',
    { browser: 'opera', version: 85, system: 'android' },
  ],
  [
    'Samsung Internet',
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
    { browser: 'samsung', version: 26, system: 'android' },
  ],
  [
    'Firefox for iOS',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/132.0 Mobile/15E148 Safari/605.1.15',
    { browser: 'firefox', version: 132, system: 'ios' },
  ],
  [
    'Chrome for iOS',
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
    { browser: 'chrome', version: 131, system: 'ios' },
  ],
  [
    'Safari on iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    { browser: 'safari', version: 18, system: 'ios' },
  ],
  [
    'Chrome on a Chromebook',
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    { browser: 'chrome', version: 131, system: 'chromeos' },
  ],
  [
    'headless Chrome',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    { browser: 'chrome', version: 131, system: 'linux' },
  ],
  [
    'Firefox on Linux',
    'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    { browser: 'firefox', version: 128, system: 'linux' },
  ],
  [
    'Internet Explorer 11',
    'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko',
    { browser: 'other', version: 0, system: 'windows' },
  ],
  ['a script', 'curl/8.5.0', { browser: 'other', version: 0, system: 'other' }],
];

describe('the User-Agent table', () => {
  it.each(CASES)('%s', (_name, ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });

  it('has a product name for every browser and system it names', () => {
    expect(Object.keys(BROWSER_LABELS).sort()).toEqual(['chrome', 'edge', 'firefox', 'opera', 'safari', 'samsung']);
    expect(Object.keys(SYSTEM_LABELS).sort()).toEqual(['android', 'chromeos', 'ios', 'linux', 'macos', 'windows']);
  });

  it('reads no further than a real header is long', () => {
    expect(parseUserAgent(`${'x'.repeat(600)} Firefox/128.0`)).toEqual({
      browser: 'other',
      version: 0,
      system: 'other',
    });
  });
});
