import { FACTOR_REVERT_TTL_MS, type Language } from '@suite/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Notice } from '../../../emails/index.js';
import { AppError } from '../../../errors.js';
import type { Mailer } from '../../../plugins/mailer.js';
import { sessionsRepository } from '../../../plugins/sessions-repository.js';
import { userLanguage } from '../language.js';
import { usersRepository } from './repository.js';
import { flowState, newStateValue } from '../state/repository.js';
import { totpRepository } from '../strategies/totp/repository.js';
import { passkeysRepository } from '../strategies/webauthn/repository.js';
import { recordAudit } from '../../audit/index.js';

/**
 * A change of how an account signs in (a passkey added, two-step verification on or off, new recovery
 * codes, a new password, an operator's reset). Each ends the account's other sessions and mails a
 * notice with a single-use "this wasn't me" link (FACTOR_REVERT_TTL_MS, its token stored hashed in
 * flow_state) that undoes what can be undone (removes the new passkey, turns off the app the thief
 * set up, clears a password the thief set) and ends every session.
 */
export interface FactorChange {
  kind: Notice;
  /** The passkey the change added: the link removes it. */
  passkeyId?: string;
}

interface Holder {
  id: string;
  email: string;
  language: Language;
}

/** Whom a factor-change notice goes to, in the language of the request or else of the account. */
export const holderOf = (user: { id: string; email: string; language: string }, language?: Language): Holder => ({
  id: user.id,
  email: user.email,
  language: userLanguage(user, language),
});

/**
 * Records the change with `db` (the caller's transaction): other sessions end (all of them when
 * `keepSession` is null), the notice is queued with its link. The caller kicks the mailer after commit.
 */
export async function noteFactorChange(
  db: Kysely<Database>,
  mailer: Pick<Mailer, 'queue'>,
  user: Holder,
  change: FactorChange,
  keepSession: string | null,
): Promise<void> {
  await sessionsRepository(db).revoke(user.id, keepSession === null ? {} : { except: keepSession });
  const token = newStateValue();
  await flowState(db).put('factor-revert', token, {
    subject: user.id,
    data: JSON.stringify(change),
    ttlMs: FACTOR_REVERT_TTL_MS,
  });
  await mailer.queue(db, { kind: change.kind, to: user.email, language: user.language, revertToken: token });
  await recordAudit(db, { kind: 'factor_changed', action: change.kind, target: { id: user.id, email: user.email } });
}

function changeOf(data: string | null): FactorChange | null {
  try {
    const parsed = JSON.parse(data ?? 'null') as Partial<FactorChange> | null;
    return parsed && typeof parsed.kind === 'string' ? (parsed as FactorChange) : null;
  } catch {
    return null;
  }
}

/** Undoes one recorded change where it can be undone; true when it was a password change. */
async function undo(trx: Kysely<Database>, userId: string, change: FactorChange): Promise<boolean> {
  if (change.kind === 'passkey-added' && change.passkeyId) {
    await passkeysRepository(trx).remove(userId, change.passkeyId);
  }
  if (change.kind === 'totp-on') await totpRepository(trx).remove(userId);
  // The old password cannot be brought back (only its hash was kept, and the thief may know it too);
  // leaving the new one would leave the thief's password working. None is left: the holder of the
  // mailbox sets one with recovery by mail.
  if (change.kind === 'password-changed') {
    await usersRepository(trx).setPassword(userId, null);
    return true;
  }
  return false;
}

/**
 * "This wasn't me": the token is spent (once); then every other live link of the account is spent too
 * and each change undone where it can be (a thief who added two passkeys in one stolen session is
 * not left the second), and every session of the account ends, the thief's included. Only the holder
 * of the mailbox has the token.
 */
export async function revertFactorChange(
  db: Kysely<Database>,
  token: string,
): Promise<{ userId: string; passwordCleared: boolean }> {
  return db.transaction().execute(async (trx) => {
    const taken = await flowState(trx).take('factor-revert', token);
    const change = changeOf(taken?.data ?? null);
    if (!taken?.subject || !change) throw new AppError('ERR_REVERT_INVALID');
    const userId = taken.subject;
    const others = await flowState(trx).takeSubject('factor-revert', userId);
    let passwordCleared = false;
    for (const each of [change, ...others.map((row) => changeOf(row.data))]) {
      if (each && (await undo(trx, userId, each))) passwordCleared = true;
    }
    await sessionsRepository(trx).revoke(userId);
    await flowState(trx).dropSubject('second-step', userId);
    return { userId, passwordCleared };
  });
}
