import { checkDisplayName } from '@suite/contract/core';

/**
 * The contract's display-name rule, as the server applies it: the error key to show (a `required` text
 * of the form, or the catalogue's ERR_INVALID_NAME), or null when the name is fine.
 */
export function displayNameProblem(value: string): 'required' | 'ERR_INVALID_NAME' | null {
  const check = checkDisplayName(value);
  if (check.ok) return null;
  return check.problem === 'empty' ? 'required' : 'ERR_INVALID_NAME';
}
