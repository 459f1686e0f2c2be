import { decodeToken } from './jwt';
import { currentToken } from './session';

/**
 * The stored session is the welcome step's (the code step's answer, before name, password and terms):
 * the server takes it only there (403 ERR_REGISTRATION_INCOMPLETE elsewhere), so a signed-in page sends
 * the person to the welcome step. Its own module: the entry screens do not load it.
 */
export function isWelcomeSession(): boolean {
  const token = currentToken();
  return token !== null && decodeToken<{ kind?: unknown }>(token)?.kind === 'welcome';
}
