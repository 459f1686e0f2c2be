import type { Kysely } from 'kysely';

/**
 * The team invitation link of each inviter, so that the person who shared it can turn it
 * off or replace it, on every instance at once. The link is a signed token naming its `generation`;
 * only the current generation of a link that is not off (`off_at` null) and not past `expires_at`
 * admits anyone. Nothing secret is stored: the token cannot be made without the signing key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('team_links')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('off_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('team_links').execute();
}
