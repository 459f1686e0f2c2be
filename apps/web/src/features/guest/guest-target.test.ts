import { describe, expect, it } from 'vitest';
import { guestTarget, meetingPathOf } from './guest-target';

const origin = window.location.origin;
const base = { from: null, referrer: '', meetOrigin: 'https://meet.acme.com' };

describe('where a new guest goes', () => {
  it('follows a same-origin vc_link or one on the meeting domain', () => {
    expect(guestTarget({ ...base, vcLink: '/meet/abc-defg-hij?x=1' })).toEqual({
      to: '/meet/abc-defg-hij?x=1',
      external: false,
    });
    expect(guestTarget({ ...base, vcLink: 'https://meet.acme.com/room' })).toEqual({
      to: 'https://meet.acme.com/room',
      external: true,
    });
  });

  it('refuses other origins and scripts, falling back to the previous page of this app', () => {
    for (const vcLink of ['javascript:alert(1)', 'https://evil.example/x', '//evil.example/x', 'data:text/html,x']) {
      expect(guestTarget({ ...base, vcLink })).toBeNull();
      expect(guestTarget({ ...base, vcLink, referrer: `${origin}/meet/abc` })).toEqual({
        to: '/meet/abc',
        external: false,
      });
    }
  });

  it('never leaves through the referrer or back to /guest itself', () => {
    expect(guestTarget({ ...base, vcLink: null, referrer: 'https://meet.acme.com/room' })).toBeNull();
    expect(guestTarget({ ...base, vcLink: null, referrer: `${origin}/guest?vc_link=x` })).toBeNull();
  });
});

describe('a /guest link to one of our meetings', () => {
  it('goes to that meeting (its pre-join asks for the name)', () => {
    expect(meetingPathOf('/meet/abc-defg-hij')).toBe('/meet/abc-defg-hij');
    expect(meetingPathOf(`${origin}/meet/abc-defg-hij?first_name=Ada`)).toBe('/meet/abc-defg-hij?first_name=Ada');
  });

  it('keeps the form for anything else: no link, another page, the meeting domain, other origins', () => {
    for (const link of [
      null,
      '',
      '/user/login',
      '/meet/',
      '/meet/a/b',
      'https://meet.acme.com/meet/abc',
      '//evil.example/meet/abc',
    ]) {
      expect(meetingPathOf(link)).toBeNull();
    }
  });
});
