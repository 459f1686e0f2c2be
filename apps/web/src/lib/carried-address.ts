import { sessionStore } from './storage';

/**
 * The address a person typed on one entry form, carried to the next (login ↔ recovery ↔ sign-up, and
 * "already in use" → login), so that nobody types it twice. Kept in this tab's session storage: never in
 * the URL (an address is personal data that would outlive the page in history and logs), and gone when the
 * tab closes.
 */
const KEY = 'carriedAddress';

export const carriedAddress = {
  get(): string {
    return sessionStore.read(KEY) ?? '';
  },
  set(address: string): void {
    const trimmed = address.trim();
    if (trimmed) sessionStore.write(KEY, trimmed);
    else sessionStore.remove(KEY);
  },
};
