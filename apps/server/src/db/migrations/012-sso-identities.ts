import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Single sign-on knows the connection and the person, not only the address.
 * - `sso_connections.id`: a stable, random id per connection, the last segment of its own OpenID Connect
 *   redirect URI (`/api/sso/oidc/callback/<id>`), so that a code can only come back to the connection
 *   that asked for it. `shared_callback` = 1 keeps a connection made before on the old shared redirect URI
 *   until the operator has registered the new one at the provider (`sso use-own-redirect-uri`).
 * - `sso_identities`: the provider's subject for an account (OIDC `iss` + `sub`, SAML IdP entity ID +
 *   persistent NameID), stored at its first sign-in through that provider: a later sign-in with the same
 *   address but another subject is another person and is refused.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sso_connections').addColumn('id', 'varchar(32)').execute();
  await db.schema
    .alterTable('sso_connections')
    .addColumn('shared_callback', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const rows = await sql<{ domain: string }>`select domain from sso_connections`.execute(db);
  for (const row of rows.rows) {
    const id = randomBytes(9).toString('base64url');
    await sql`update sso_connections set id = ${id}, shared_callback = 1 where domain = ${row.domain}`.execute(db);
  }
  await db.schema.createIndex('sso_connections_id_idx').on('sso_connections').column('id').unique().execute();
  await db.schema
    .createTable('sso_identities')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('issuer', 'varchar(512)', (c) => c.notNull())
    .addColumn('subject', 'varchar(512)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_identities_pk', ['user_id', 'issuer'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_identities').execute();
  await db.schema.dropIndex('sso_connections_id_idx').execute();
  await db.schema.alterTable('sso_connections').dropColumn('shared_callback').execute();
  await db.schema.alterTable('sso_connections').dropColumn('id').execute();
}
