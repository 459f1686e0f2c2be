import { describe, expect, it } from 'vitest';
import { deviceParts } from './device-label';
import { relativeTime } from './relative-time';

const UA = {
  chromeLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  edgeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  samsungAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  chromeIpad:
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  edgeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

describe('device summary of a session: browser with its major version, and system', () => {
  it.each([
    [UA.chromeLinux, 'Chrome 131', 'Linux'],
    [UA.safariIphone, 'Safari 17', 'iPhone'],
    [UA.firefoxWindows, 'Firefox 133', 'Windows'],
    [UA.edgeMac, 'Edge 131', 'macOS'],
    [UA.samsungAndroid, 'Samsung Internet 26', 'Android'],
    [UA.chromeIpad, 'Chrome 131', 'iPad'],
    [UA.chromebook, 'Chrome 131', 'ChromeOS'],
    // The server's mails name it the same (the contract's one User-Agent table).
    [UA.edgeAndroid, 'Edge 131', 'Android'],
  ])('%s → %s on %s', (ua, browser, os) => {
    expect(deviceParts(ua)).toEqual({ kind: 'browser-os', browser, os });
  });

  it("calls what is not a browser, or sends no User-Agent, an app: never the header's own token", () => {
    expect(deviceParts('curl/8.5.0')).toEqual({ kind: 'app' });
    expect(deviceParts('node')).toEqual({ kind: 'app' });
    expect(deviceParts('Mozilla/5.0 (X11; Linux x86_64) SomeAgent/1')).toEqual({ kind: 'os', os: 'Linux' });
    expect(deviceParts(null)).toEqual({ kind: 'app' });
    expect(deviceParts('  ')).toEqual({ kind: 'app' });
  });
});

describe('relative last-seen time', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it('reads as a person would say it, in the UI language', () => {
    expect(relativeTime(ago(20), now, 'en-US')).toBe('now');
    expect(relativeTime(ago(5 * 60), now, 'en-US')).toBe('5 minutes ago');
    expect(relativeTime(ago(59 * 60 + 50), now, 'en-US')).toBe('1 hour ago');
    expect(relativeTime(ago(3 * 3600), now, 'en-US')).toBe('3 hours ago');
    expect(relativeTime(ago(26 * 3600), now, 'en-US')).toBe('yesterday');
    expect(relativeTime(ago(5 * 86400), now, 'pt-BR')).toBe('há 5 dias');
    expect(relativeTime(ago(2 * 3600), now, 'es-ES')).toBe('hace 2 horas');
    expect(relativeTime(ago(5 * 60), now, 'it-IT')).toBe('5 minuti fa');
    expect(relativeTime(ago(5 * 60), now, 'hi-IN')).toBe('5 मिनट पहले');
    expect(relativeTime(ago(400 * 86400), now, 'en-US')).toBe('last year');
  });
});
