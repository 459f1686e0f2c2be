import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@suite/contract/core';

/** Spec §5/§9: a password has 6 to 64 characters. */
export const passwordLengthOk = (value: string): boolean =>
  value.length >= PASSWORD_MIN_LENGTH && value.length <= PASSWORD_MAX_LENGTH;
