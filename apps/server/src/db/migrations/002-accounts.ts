import type { Kysely } from 'kysely';

/** Accounts: e-mailed codes, the mail outbox, invitations, and the user columns sign-up needs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('domain', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('users').addColumn('accepted_terms_version', 'integer').execute();
  await db.schema.alterTable('users').addColumn('accepted_terms_at', 'bigint').execute();
  await db.schema.createIndex('users_domain_idx').on('users').column('domain').execute();

  // One live code per (email, purpose): a resend overwrites the row, which kills the old code.
  await db.schema
    .createTable('codes')
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Mail budget per address and purpose (sign-up repeats, resends and automatic resends share it).
    .addColumn('sends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sends_window_started_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('codes_pk', ['email', 'purpose'])
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('to_address', 'varchar(320)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', 'bigint')
    .addColumn('failed_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mail_outbox_due_idx')
    .on('mail_outbox')
    .columns(['sent_at', 'failed_at', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('invites')
    .addColumn('jti_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('inviter_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invites_email_idx').on('invites').column('email').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invites').execute();
  await db.schema.dropTable('mail_outbox').execute();
  await db.schema.dropTable('codes').execute();
  await db.schema.dropIndex('users_domain_idx').execute();
  await db.schema.alterTable('users').dropColumn('accepted_terms_at').execute();
  await db.schema.alterTable('users').dropColumn('accepted_terms_version').execute();
  await db.schema.alterTable('users').dropColumn('domain').execute();
}
