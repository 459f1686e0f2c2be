import type { SecondFactorAlarmKind } from '../../../emails/index.js';
import type { AccountsDeps } from '../deps.js';
import { userLanguage } from '../language.js';
import { usersRepository } from './repository.js';

/** Wrong two-step codes for one address in a window before its owner is told (plugins/throttle.ts alarm). */
export const WRONG_SECOND_FACTOR_ALARM = 10;

/**
 * Tells the owner of `email` that someone got past the first step and is now guessing the second
 * factor (the throttle calls it once a window): past the password at sign-in ('password-known'), or
 * past a reset code read from the mailbox ('mailbox-known'), which calls for other advice. Through the
 * outbox like every mail; an unknown or deactivated account gets nothing.
 */
async function warnOwner(deps: AccountsDeps, kind: SecondFactorAlarmKind, email: string): Promise<void> {
  const user = await usersRepository(deps.db).byEmail(email);
  if (!user?.active) return;
  await deps.mailer.queue(deps.db, { kind, to: user.email, language: userLanguage(user) });
  deps.mailer.kick();
}

/** The throttle's alarm of a second-factor step, by what the stranger got past before it. */
export const secondFactorAlarm = (deps: AccountsDeps, kind: SecondFactorAlarmKind) => ({
  after: WRONG_SECOND_FACTOR_ALARM,
  notify: (email: string) => warnOwner(deps, kind, email),
});
