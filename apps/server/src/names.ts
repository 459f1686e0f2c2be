import { checkDisplayName } from '@suite/contract';
import { AppError } from './errors.js';

/**
 * A typed display name under the contract's one rule (NFC, trimmed, no control/format/bidi
 * characters, length limit), in the form to store; 400 ERR_VALIDATION when empty, ERR_INVALID_NAME
 * otherwise, with the field in `details`.
 */
export function requireDisplayName(raw: string, field: string, max?: number): string {
  const check = checkDisplayName(raw, max);
  if (check.ok) return check.value;
  throw new AppError(check.problem === 'empty' ? 'ERR_VALIDATION' : 'ERR_INVALID_NAME', {
    details: [{ path: field, message: check.problem }],
  });
}
