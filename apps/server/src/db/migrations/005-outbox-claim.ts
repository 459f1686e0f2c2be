import type { Kysely } from 'kysely';

/** Outbox claims carry the claimant's token: only its holder may extend, release or complete a claim. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('claim_token', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('claim_token').execute();
}
