import type { AccountsDeps } from '../deps.js';
import { userLanguage } from '../language.js';
import { usersRepository } from './repository.js';

/** Wrong two-step codes for one address in a window before its owner is told (plugins/throttle.ts alarm). */
export const WRONG_SECOND_FACTOR_ALARM = 10;

/**
 * Tells the owner of `email` that someone got past their password and is now guessing the second
 * factor (the throttle calls it once a window). Through the outbox like every mail; an unknown or
 * deactivated account gets nothing.
 */
async function warnPasswordKnown(deps: AccountsDeps, email: string): Promise<void> {
  const user = await usersRepository(deps.db).byEmail(email);
  if (!user?.active) return;
  await deps.mailer.queue(deps.db, { kind: 'password-known', to: user.email, language: userLanguage(user) });
  deps.mailer.kick();
}

/** The throttle's alarm of the second-factor step. */
export const passwordKnownAlarm = (deps: AccountsDeps) => ({
  after: WRONG_SECOND_FACTOR_ALARM,
  notify: (email: string) => warnPasswordKnown(deps, email),
});
