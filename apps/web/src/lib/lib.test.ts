import { describe, expect, it } from 'vitest';
import { detectBrowser, isSupportedBrowser, suggestedBrowsers } from './browser';
import { safeHttpUrl, safeRedirectTarget } from './safe-redirect';
import { detectLanguage } from './i18n';
import { decodeToken, isExpired } from './jwt';
import { passwordLengthOk } from './password-rules';

const UA = {
  macChrome:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  ie11: 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko',
  oldChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/80.0.0.0 Safari/537.36',
};

describe('browser detection', () => {
  it('recognizes OS, browser and mobile', () => {
    expect(detectBrowser(UA.macChrome, 0)).toEqual({ os: 'macos', browser: 'chrome', version: 130, mobile: false });
    expect(detectBrowser(UA.iphone, 5)).toMatchObject({ os: 'ios', browser: 'safari', mobile: true });
    expect(detectBrowser(UA.android, 5)).toMatchObject({ os: 'android', browser: 'chrome', mobile: true });
    expect(detectBrowser(UA.macChrome.replace('Chrome/130.0.0.0 ', ''), 5).os).toBe('ios'); // iPadOS desktop mode
  });
  it('names Edge for Android and iOS Edge, not the Chrome or Safari they also claim to be', () => {
    const edgeAndroid = `${UA.android} EdgA/131.0.0.0`;
    expect(detectBrowser(edgeAndroid, 5)).toEqual({ os: 'android', browser: 'edge', version: 131, mobile: true });
    expect(isSupportedBrowser(detectBrowser(edgeAndroid, 5))).toBe(true);
    const edgeIos = UA.iphone.replace('Mobile/', 'EdgiOS/131.0.2903.68 Mobile/');
    expect(detectBrowser(edgeIos, 5)).toMatchObject({ os: 'ios', browser: 'edge', version: 131 });
    expect(isSupportedBrowser(detectBrowser(edgeIos, 5))).toBe(true);
  });
  it('homologates current Chrome/Firefox/Safari only', () => {
    expect(isSupportedBrowser(detectBrowser(UA.firefoxLinux, 0))).toBe(true);
    expect(isSupportedBrowser(detectBrowser(UA.ie11, 0))).toBe(false);
    expect(isSupportedBrowser(detectBrowser(UA.oldChrome, 0))).toBe(false);
  });
  it('suggests browsers by OS as the spec says', () => {
    expect(suggestedBrowsers('macos')).toEqual(['chrome', 'firefox', 'safari']);
    expect(suggestedBrowsers('ios')).toEqual(['safari']);
    expect(suggestedBrowsers('windows')).toEqual(['chrome', 'firefox']);
    expect(suggestedBrowsers('android')).toEqual(['chrome', 'firefox']);
  });
});

describe('safe redirects', () => {
  it('keeps same-origin paths and refuses everything else', () => {
    expect(safeRedirectTarget('/meet/abc?x=1')).toBe('/meet/abc?x=1');
    expect(safeRedirectTarget(`${window.location.origin}/app`)).toBe('/app');
    expect(safeRedirectTarget('https://evil.example/')).toBeNull();
    expect(safeRedirectTarget('//evil.example/')).toBeNull();
    expect(safeRedirectTarget('javascript:alert(1)')).toBeNull();
    expect(safeRedirectTarget('/\\evil.example')).toBeNull();
    expect(safeRedirectTarget('https://meet.example.com/r', ['https://meet.example.com'])).toBe(
      'https://meet.example.com/r',
    );
  });
  it('accepts only http(s) URLs for avatars and links', () => {
    expect(safeHttpUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:image/png;base64,AAA')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
  });
});

describe('language detection (spec §1)', () => {
  it('maps browser languages to our five, English otherwise', () => {
    expect(detectLanguage(['pt-BR'])).toBe('pt');
    expect(detectLanguage(['pt-PT'])).toBe('pt');
    expect(detectLanguage(['es-MX'])).toBe('es');
    expect(detectLanguage(['hi-IN'])).toBe('hi');
    expect(detectLanguage(['it'])).toBe('it');
    expect(detectLanguage(['de-DE'])).toBe('en');
    expect(detectLanguage([])).toBe('en');
  });
  it('prefers a language the user picked', () => {
    localStorage.setItem('language', 'it');
    expect(detectLanguage(['pt-BR'])).toBe('it');
  });
});

describe('tokens', () => {
  const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  it('decodes a JWT and tells whether it expired', () => {
    const token = `${b64({ alg: 'HS256' })}.${b64({ exp: Math.floor(Date.now() / 1000) + 60 })}.sig`;
    expect(isExpired(decodeToken(token))).toBe(false);
    expect(isExpired(decodeToken(`${b64({ alg: 'HS256' })}.${b64({ exp: 1 })}.sig`))).toBe(true);
    expect(decodeToken('garbage')).toBeNull();
    expect(isExpired(null)).toBe(true);
  });
});

describe('password length rule', () => {
  it('counts characters as the user sees them (an emoji is one), 6 to 64', () => {
    expect(passwordLengthOk('12345')).toBe(false);
    expect(passwordLengthOk('123456')).toBe(true);
    expect(passwordLengthOk('😀'.repeat(64))).toBe(true);
    expect(passwordLengthOk('😀'.repeat(65))).toBe(false);
    expect(passwordLengthOk('😀😀😀')).toBe(false);
  });
});
