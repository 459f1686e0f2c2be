import { afterEach, describe, expect, it } from 'vitest';
import { takeInviteToken } from './invite-link';

describe('takeInviteToken', () => {
  afterEach(() => {
    sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('takes the token from the address once, removes it there, and keeps it for a reload of this tab', () => {
    window.history.replaceState(null, '', '/meet/abc-defg-hij?lang=hi&invite=AbCdEfGhIjKlMnOpQrStUvWx#x');
    expect(takeInviteToken('abc-defg-hij')).toBe('AbCdEfGhIjKlMnOpQrStUvWx');
    expect(window.location.search).toBe('?lang=hi');
    expect(window.location.hash).toBe('#x');
    expect(takeInviteToken('abc-defg-hij')).toBe('AbCdEfGhIjKlMnOpQrStUvWx');
    expect(takeInviteToken('other-room-xyz')).toBeNull();
  });

  it('drops a token of the wrong shape', () => {
    window.history.replaceState(null, '', '/meet/abc-defg-hij?invite=<script>');
    expect(takeInviteToken('abc-defg-hij')).toBeNull();
    expect(window.location.search).toBe('');
  });
});
