import type { Kysely } from 'kysely';

/**
 * The domain administrator's console.
 * - `domain_admins`: who administers a domain, granted by the operator, another administrator or a DNS
 *   proof; `record_missing_since` starts the grace of a DNS claim whose record vanished.
 * - `domain_settings`: per-domain sign-up mode and security policy (a domain without a row: open, no policy).
 * - `access_requests`: "Ask for access" and approval sign-ups; the mail link's token is kept as its SHA-256
 *   and cleared when used, so the link works once.
 * - `audit_events`: append-only, written in the transaction of the change; keyset paged by (at, id).
 * - `users_domain_email_idx`: the People page pages a domain's accounts by address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('domain_admins')
    .addColumn('domain', 'varchar(255)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('via', 'varchar(16)', (c) => c.notNull())
    .addColumn('granted_by', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('checked_at', 'bigint')
    .addColumn('record_missing_since', 'bigint')
    .addPrimaryKeyConstraint('domain_admins_pk', ['domain', 'user_id'])
    .execute();
  await db.schema.createIndex('domain_admins_user_idx').on('domain_admins').column('user_id').execute();

  await db.schema
    .createTable('domain_settings')
    .addColumn('domain', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('signup_mode', 'varchar(16)', (c) => c.notNull().defaultTo('open'))
    .addColumn('require_two_step', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('two_step_grace_days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('two_step_grace_until', 'bigint')
    .addColumn('session_max_ms', 'bigint')
    .addColumn('session_idle_ms', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('access_requests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('domain', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('reason', 'varchar(32)', (c) => c.notNull())
    .addColumn('message', 'varchar(2000)')
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.unique())
    .addColumn('token_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .addColumn('decided_by', 'varchar(320)')
    .execute();
  await db.schema
    .createIndex('access_requests_domain_idx')
    .on('access_requests')
    .columns(['domain', 'status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('access_requests_email_idx')
    .on('access_requests')
    .columns(['email', 'created_at'])
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('domain', 'varchar(255)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(64)')
    .addColumn('actor_email', 'varchar(320)')
    .addColumn('target_id', 'varchar(64)')
    .addColumn('target_email', 'varchar(320)')
    .addColumn('reason', 'varchar(200)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('details', 'varchar(4000)', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('audit_domain_at_idx').on('audit_events').columns(['domain', 'at', 'id']).execute();
  await db.schema
    .createIndex('audit_domain_kind_idx')
    .on('audit_events')
    .columns(['domain', 'kind', 'at', 'id'])
    .execute();
  await db.schema.createIndex('audit_target_idx').on('audit_events').columns(['target_email', 'at', 'id']).execute();
  await db.schema.createIndex('audit_actor_idx').on('audit_events').columns(['actor_email', 'at', 'id']).execute();
  await db.schema
    .createIndex('audit_target_kind_idx')
    .on('audit_events')
    .columns(['target_id', 'kind', 'at'])
    .execute();
  await db.schema.createIndex('audit_at_idx').on('audit_events').column('at').execute();

  await db.schema.createIndex('users_domain_email_idx').on('users').columns(['domain', 'email']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_domain_email_idx').execute();
  await db.schema.dropTable('audit_events').execute();
  await db.schema.dropTable('access_requests').execute();
  await db.schema.dropTable('domain_settings').execute();
  await db.schema.dropTable('domain_admins').execute();
}
