import type { Kysely } from 'kysely';

/**
 * `users.credential_generation`: moves whenever every other session of the account is ended (sign out
 * of all devices, a password change or reset, a deactivation, a reset of the factors). A trusted-device
 * cookie entry is signed for one generation (plugins/throttle.ts), so such an event also ends the
 * trust every browser had earned, without a row per browser to find and delete.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('credential_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('credential_generation').execute();
}
