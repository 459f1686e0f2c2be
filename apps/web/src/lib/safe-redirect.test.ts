import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './safe-redirect';

const origin = window.location.origin;

describe('safeRedirectTarget: open-redirect payloads are refused', () => {
  it.each([
    ['another origin', 'https://evil.example/'],
    ['protocol-relative', '//evil.example/'],
    ['protocol-relative with three slashes', '///evil.example/'],
    ['backslash after the slash', '/\\evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['dot segment to a protocol-relative path', '/.//evil.example'],
    ['dot-dot segment to a protocol-relative path', '/a/..//evil.example'],
    ['encoded dot segment', '/%2e//evil.example'],
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: with a tab inside', 'java\tscript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['credentials before another host', 'https://ours@evil.example/'],
    ['our origin as user name', `${origin}@evil.example/`],
    ['tab before the slashes', '/\t/evil.example'],
    ['newline before the slashes', '/\n/evil.example'],
    ['C1 next-line control', '/\u0085/evil.example'],
    ['scheme without slashes', 'https:evil.example'],
    ['an allowed origin only counts when passed', 'https://meet.example.com/r'],
  ])('refuses %s: %j', (_what, payload) => {
    expect(safeRedirectTarget(payload)).toBeNull();
  });

  it('no refused payload becomes another origin when navigated to', () => {
    for (const payload of ['/.//evil.example', '/a/..//evil.example', '/%2e//evil.example']) {
      const target = safeRedirectTarget(payload);
      expect(target === null || new URL(target, origin).origin === origin).toBe(true);
    }
  });

  it('keeps same-origin paths and explicitly allowed origins', () => {
    expect(safeRedirectTarget('/meet/abc?x=1#y')).toBe('/meet/abc?x=1#y');
    expect(safeRedirectTarget(`${origin}/app`)).toBe('/app');
    expect(safeRedirectTarget('/a/./b/../c')).toBe('/a/c');
    expect(safeRedirectTarget('https://meet.example.com/r', ['https://meet.example.com'])).toBe(
      'https://meet.example.com/r',
    );
  });
});
