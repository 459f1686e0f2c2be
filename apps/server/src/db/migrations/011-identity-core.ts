import type { Kysely } from 'kysely';

/**
 * The identity core.
 * - `flow_state`: the one store of short-lived, single-use state (WebAuthn challenges, pending second
 *   steps, started SSO sign-ins, accepted SAML assertion IDs, /auth hand-offs, …), keyed by the
 *   SHA-256 of the value, with a purpose, a subject, attempts and an expiry. It replaces
 *   `auth_challenges`, `sso_requests`, `sso_replays` and `handoffs`: their rows live minutes, so an
 *   upgrade only asks a person in the middle of a sign-in to start it again.
 * - `sessions.amr`, `aal`, `proved_at`: the methods a session was proved with (comma-separated), the
 *   assurance it reached (1 or 2) and when its holder last proved who they are (epoch ms; null: never
 *   since the column exists, so a sensitive change asks for a proof).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('flow_state')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('data', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('flow_state_expiry_idx').on('flow_state').column('expires_at').execute();
  for (const table of ['auth_challenges', 'sso_requests', 'sso_replays', 'handoffs']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema
    .alterTable('sessions')
    .addColumn('amr', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('aal', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('sessions').addColumn('proved_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['proved_at', 'aal', 'amr']) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
  await db.schema.dropTable('flow_state').execute();
}
