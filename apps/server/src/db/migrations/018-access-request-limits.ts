import type { Kysely } from 'kysely';

/**
 * Access requests that strangers cannot crowd out, and approvals that admit one sign-up.
 * - `mail_held`: 1 when the request was announced without its own mail to the administrators (the
 *   domain's daily share of mails was used up; a digest tells them it waits in the console).
 * - `used_at`: when the approval admitted its sign-up (an approval admits one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('access_requests')
    .addColumn('mail_held', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('access_requests').addColumn('used_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('access_requests').dropColumn('used_at').execute();
  await db.schema.alterTable('access_requests').dropColumn('mail_held').execute();
}
