import type { Kysely } from 'kysely';

/**
 * Company sign-in.
 * - `sessions.method`: how the session was signed in ('password', 'sso', …), shown in the sessions panel.
 * - `sso_connections`: one identity provider per e-mail domain (OpenID Connect or SAML 2.0); `settings` is
 *   the protocol's public JSON, `secret` the OIDC client secret sealed with a key derived from SESSION_SECRET.
 * - `sso_requests`: each sign-in we started (OIDC `state`, SAML request ID), single use, short-lived,
 *   shared by every instance (the callback may land on another one).
 * - `sso_replays`: assertion IDs already accepted (SAML), kept until they expire.
 * - `handoffs`: the single-use token that hands a session made by a redirect flow to the web app's
 *   `/auth` page (only its SHA-256 is stored).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('method', 'varchar(16)', (c) => c.notNull().defaultTo('password'))
    .execute();
  await db.schema
    .createTable('sso_connections')
    .addColumn('domain', 'varchar(253)', (c) => c.primaryKey())
    .addColumn('protocol', 'varchar(8)', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('secret', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sso_requests')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('protocol', 'varchar(8)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sso_replays')
    .addColumn('id', 'varchar(256)', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('handoffs')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method', 'varchar(16)', (c) => c.notNull())
    .addColumn('device', 'varchar(256)')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['handoffs', 'sso_replays', 'sso_requests', 'sso_connections']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('sessions').dropColumn('method').execute();
}
