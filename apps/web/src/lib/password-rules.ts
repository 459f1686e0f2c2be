import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, textLength } from '@suite/contract/core';

/** Spec §5/§9: a password has 6 to 64 characters, counted as the server counts them (code points). */
export const passwordLengthOk = (value: string): boolean => {
  const length = textLength(value);
  return length >= PASSWORD_MIN_LENGTH && length <= PASSWORD_MAX_LENGTH;
};
