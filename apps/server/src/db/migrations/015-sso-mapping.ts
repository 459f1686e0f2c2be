import type { Kysely } from 'kysely';

/**
 * A single-sign-on connection may serve several e-mail domains (an Entra ID tenant usually has several
 * verified ones): `sso_connections.domain` stays the connection's first domain (its key), and each
 * further domain names that key here. A domain belongs to one connection only, hence the primary key.
 * Everything else the connection gained (attribute mapping, metadata URL, SHA-1 rule, trust of the
 * provider's addresses) is optional JSON in `sso_connections.settings`, no column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_connection_domains')
    .addColumn('domain', 'varchar(253)', (c) => c.primaryKey())
    .addColumn('connection_domain', 'varchar(253)', (c) =>
      c.notNull().references('sso_connections.domain').onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('sso_connection_domains_connection_idx')
    .on('sso_connection_domains')
    .column('connection_domain')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_connection_domains').execute();
}
