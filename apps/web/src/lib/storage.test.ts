import { afterEach, describe, expect, it } from 'vitest';
import { readString, sessionStore } from './storage';

const KEY = 'storageTestKey';

describe('session storage, guarded', () => {
  afterEach(() => window.sessionStorage.clear());

  it('keeps a value for this tab only: in session storage, never in local storage', () => {
    sessionStore.write(KEY, 'ada@contoso.com');
    expect(sessionStore.read(KEY)).toBe('ada@contoso.com');
    expect(window.sessionStorage.getItem(KEY)).toBe('ada@contoso.com');
    expect(window.localStorage.getItem(KEY)).toBeNull();
    expect(readString(KEY as never)).toBeNull();
    sessionStore.remove(KEY);
    expect(sessionStore.read(KEY)).toBeNull();
  });

  it('when the browser blocks storage, reads nothing and writes nothing, without an error', () => {
    const real = Object.getOwnPropertyDescriptor(window, 'sessionStorage')!;
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    try {
      expect(() => sessionStore.write(KEY, 'ada@contoso.com')).not.toThrow();
      expect(sessionStore.read(KEY)).toBeNull();
      expect(() => sessionStore.remove(KEY)).not.toThrow();
    } finally {
      Object.defineProperty(window, 'sessionStorage', real);
    }
    expect(window.sessionStorage.getItem(KEY)).toBeNull();
  });
});
