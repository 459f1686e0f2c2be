import type { Kysely } from 'kysely';

/**
 * Storage quota: bytes an upload in progress holds against its owner's quota, so that
 * parallel uploads cannot together pass it. A row lives while its upload streams; an abandoned one
 * (the instance died) stops counting at expires_at.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_reservations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_reservations_user_idx').on('file_reservations').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file_reservations').execute();
}
