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

export function readString(key: Key): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
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
  try {
    window.localStorage.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
  } catch {
    // Storage full or blocked: the app keeps working for this page view.
  }
}

export function remove(...keys: Key[]): void {
  for (const key of keys) {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // ignore
    }
  }
}

export function clearAll(): void {
  try {
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch {
    // ignore
  }
}
