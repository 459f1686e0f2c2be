import { STORAGE_KEYS } from '@suite/contract/core';

export { STORAGE_KEYS };
type Key = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** True when local storage works (it throws when third-party cookies/storage are blocked). */
export function storageAvailable(): boolean {
  try {
    const probe = '__storage_probe__';
    window.localStorage.setItem(probe, probe);
    window.localStorage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

/**
 * One of the browser's storages with every call guarded: it throws when storage is blocked (private modes,
 * third-party frames) or full, and the app then keeps working for this page view, remembering nothing.
 */
function guarded(area: () => Storage) {
  return {
    read(key: string): string | null {
      try {
        return area().getItem(key);
      } catch {
        return null;
      }
    },
    write(key: string, value: string): void {
      try {
        area().setItem(key, value);
      } catch {
        // Storage full or blocked: nothing is remembered.
      }
    },
    remove(key: string): void {
      try {
        area().removeItem(key);
      } catch {
        // Blocked: there was nothing to remove.
      }
    },
  };
}

const local = guarded(() => window.localStorage);

/** This tab's session storage: for what must not outlive the tab (gone when it closes, never shared). */
export const sessionStore = guarded(() => window.sessionStorage);

export function readString(key: Key): string | null {
  return local.read(key);
}

export function readJson<T>(key: Key): T | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function write(key: Key, value: unknown): void {
  local.write(key, typeof value === 'string' ? value : JSON.stringify(value));
}

export function remove(...keys: Key[]): void {
  for (const key of keys) local.remove(key);
}

export function clearAll(): void {
  try {
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch {
    // ignore
  }
}
