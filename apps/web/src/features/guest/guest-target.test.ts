import { describe, expect, it } from 'vitest';
import { guestTarget } from './guest-target';

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
