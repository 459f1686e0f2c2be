import { STORAGE_KEYS, readString, remove, write } from './storage';

/** The address whose e-mailed code the code screen checks (spec §3: tokenValidationEmail). */
export const flowEmail = {
  get: (): string => readString(STORAGE_KEYS.tokenValidationEmail) ?? '',
  set: (email: string): void => write(STORAGE_KEYS.tokenValidationEmail, email.trim()),
  clear: (): void => remove(STORAGE_KEYS.tokenValidationEmail),
};
