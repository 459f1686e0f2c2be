import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Profile, ProfileType } from '@suite/contract';
import type { Database, UsersTable } from '../../../db/schema.js';

export type UserRow = Selectable<UsersTable>;

export const findUserByEmail = (db: Kysely<Database>, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

export const findUserById = (db: Kysely<Database>, id: string) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * An account that cannot be used yet: not confirmed, or confirmed (by a code or an invite) but its
 * registration never finished, so it has no password. Sign-up, resend and confirm treat both alike
 * (a fresh code, then the welcome step), and login answers ERR_USER_NOT_CONFIRMED so the login
 * screen's "Send again" leads there too. Nobody is left with an address they can neither sign up
 * with ("already in use") nor log in with.
 */
export const awaitsCodeStep = (user: Pick<UserRow, 'confirmed_at' | 'password_hash'>): boolean =>
  user.confirmed_at === null || user.password_hash === null;

export interface NewUser {
  email: string;
  domain: string;
  language: string;
  profileType: ProfileType;
  confirmed: boolean;
  invitedBy: string | null;
}

/** The user and its first (acting) profile, created together. */
export async function createUser(db: Kysely<Database>, input: NewUser): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db
    .insertInto('users')
    .values({
      id,
      email: input.email,
      domain: input.domain,
      language: input.language,
      first_name: '',
      last_name: '',
      preferences: '{}',
      password_hash: null,
      confirmed_at: input.confirmed ? now : null,
      registered_at: null,
      invited_by: input.invitedBy,
      created_at: now,
      accepted_terms_version: null,
      accepted_terms_at: null,
    })
    .execute();
  await db
    .insertInto('profiles')
    .values({ id: randomUUID(), user_id: id, type: input.profileType, first_name: '', last_name: '', created_at: now })
    .execute();
  return id;
}

/** Profiles in creation order: the first one is the acting profile. */
export async function profilesOf(db: Kysely<Database>, user: Pick<UserRow, 'id' | 'email'>): Promise<Profile[]> {
  const rows = await db
    .selectFrom('profiles')
    .selectAll()
    .where('user_id', '=', user.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((p) => ({
    _id: p.id,
    type: p.type,
    info: { first_name: p.first_name, last_name: p.last_name, email: user.email },
  }));
}

export async function markConfirmed(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ confirmed_at: Date.now() })
    .where('id', '=', id)
    .where('confirmed_at', 'is', null)
    .execute();
}

export async function completeRegistration(
  db: Kysely<Database>,
  id: string,
  input: { firstName: string; lastName: string; passwordHash: string; termsVersion: number },
): Promise<boolean> {
  const now = Date.now();
  const done = await db
    .updateTable('users')
    .set({
      first_name: input.firstName,
      last_name: input.lastName,
      password_hash: input.passwordHash,
      registered_at: now,
      accepted_terms_version: input.termsVersion,
      accepted_terms_at: now,
    })
    .where('id', '=', id)
    .where('registered_at', 'is', null)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  await db
    .updateTable('profiles')
    .set({ first_name: input.firstName, last_name: input.lastName })
    .where('user_id', '=', id)
    .execute();
  return true;
}

/** New password; sessions issued up to `now` stop working. */
export async function setPassword(db: Kysely<Database>, id: string, passwordHash: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, sessions_valid_after: now })
    .where('id', '=', id)
    .execute();
}

export async function revokeSessions(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db.updateTable('users').set({ sessions_valid_after: now }).where('id', '=', id).execute();
}

/** Unique-constraint violation on SQLite or PostgreSQL (two sign-ups of one address racing). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT');
}
