import type { Kysely } from 'kysely';

/**
 * Encrypted assertions and single logout.
 * - `sso_sp_keys`: our SAML service provider's key pairs (one current, older ones retired): the private
 *   key sealed like an OIDC client secret, the self-signed certificate published in the SP metadata.
 *   Kept in the database so that every instance decrypts with the same key.
 * - `sso_sessions`: what a session signed in through a provider needs for single logout: the
 *   connection's domain, the SAML NameID and SessionIndex or the OIDC `sub`/`sid`, and the ID token
 *   (sealed) for RP-initiated logout. Deleted with its session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_sp_keys')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('certificate', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute();
  await db.schema
    .createTable('sso_sessions')
    .addColumn('session_id', 'varchar(64)', (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('domain', 'varchar(255)', (c) => c.notNull())
    .addColumn('protocol', 'varchar(8)', (c) => c.notNull())
    .addColumn('subject', 'varchar(512)', (c) => c.notNull())
    .addColumn('session_index', 'varchar(255)')
    .addColumn('name_id_format', 'varchar(255)')
    .addColumn('id_token', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_sessions_subject_idx').on('sso_sessions').columns(['domain', 'subject']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_sessions').execute();
  await db.schema.dropTable('sso_sp_keys').execute();
}
