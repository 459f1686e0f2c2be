import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Profile, ProfileType } from '@suite/contract';
import type { Database, UsersTable } from '../../../db/schema.js';

export type UserRow = Selectable<UsersTable>;

/**
 * An account that cannot be used yet: not confirmed, or confirmed (by a code or an invite) but its
 * registration never finished, so it has no password. Sign-up, resend and confirm treat both alike
 * (a fresh code, then the welcome step), and login answers ERR_USER_NOT_CONFIRMED so the login
 * screen's "Send again" leads there too. Nobody is left with an address they can neither sign up
 * with ("already in use") nor log in with. A registered account without a password (made by single
 * sign-on, which signs it in) waits for nothing: an e-mailed code would be a way past its provider.
 */
export const awaitsCodeStep = (user: Pick<UserRow, 'confirmed_at' | 'password_hash' | 'registered_at'>): boolean =>
  user.confirmed_at === null || (user.password_hash === null && user.registered_at === null);

export interface NewUser {
  email: string;
  domain: string;
  language: string;
  profileType: ProfileType;
  confirmed: boolean;
  invitedBy: string | null;
}

/** Users and their profiles. `db` may be a transaction: pass the caller's to write with it. */
export function usersRepository(db: Kysely<Database>) {
  return {
    byEmail: (email: string) => db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst(),

    byId: (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Every user, oldest first, optionally of one domain (the admin CLI's list). */
    list: (domain?: string) => {
      const query = db.selectFrom('users').selectAll().orderBy('created_at');
      return (domain ? query.where('domain', '=', domain) : query).execute();
    },

    /** The given addresses that belong to a registered account (confirmed, with a password). */
    async registeredAmong(emails: string[]): Promise<string[]> {
      const rows = await db
        .selectFrom('users')
        .select('email')
        .where('email', 'in', emails)
        .where('confirmed_at', 'is not', null)
        .where('password_hash', 'is not', null)
        .execute();
      return rows.map((r) => r.email);
    },

    /** The user and its first (acting) profile, created together. */
    async create(input: NewUser): Promise<string> {
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
        .values({
          id: randomUUID(),
          user_id: id,
          type: input.profileType,
          first_name: '',
          last_name: '',
          created_at: now,
        })
        .execute();
      return id;
    },

    /** Profiles in creation order: the first one is the acting profile. */
    async profilesOf(user: Pick<UserRow, 'id' | 'email'>): Promise<Profile[]> {
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
    },

    async markConfirmed(id: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ confirmed_at: Date.now() })
        .where('id', '=', id)
        .where('confirmed_at', 'is', null)
        .execute();
    },

    /** Name, password and terms of the welcome step; false when the account was registered already. */
    async completeRegistration(
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
    },

    /** The names a provider gave (single sign-on), on the account and its first profile. */
    async setNames(id: string, firstName: string, lastName: string): Promise<void> {
      await db.updateTable('users').set({ first_name: firstName, last_name: lastName }).where('id', '=', id).execute();
      await db
        .updateTable('profiles')
        .set({ first_name: firstName, last_name: lastName })
        .where('user_id', '=', id)
        .execute();
    },

    /** The welcome step of a single-sign-on account: terms only (no password; the names came from the provider). */
    async completeSsoRegistration(id: string, termsVersion: number): Promise<boolean> {
      const now = Date.now();
      const done = await db
        .updateTable('users')
        .set({ registered_at: now, accepted_terms_version: termsVersion, accepted_terms_at: now })
        .where('id', '=', id)
        .where('registered_at', 'is', null)
        .where('password_hash', 'is', null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    /** New password; which sessions end is the caller's choice (plugins/auth.ts `revoke`). */
    /** `null` clears it: the account then signs in by recovery by mail (or a passkey, SSO) only. */
    async setPassword(id: string, passwordHash: string | null): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
    },

    /** Activates or deactivates an account by address; false when there is none. */
    async setActive(email: string, active: boolean): Promise<boolean> {
      const done = await db
        .updateTable('users')
        .set({ active: Number(active) })
        .where('email', '=', email)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
