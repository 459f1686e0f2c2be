import { sql, type Kysely } from 'kysely';

/** Video conferences (id = Jitsi room name), guests, and the host-started sessions of a conference. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('videoconferences')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('host_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('videoconferences_host_idx')
    .on('videoconferences')
    .columns(['host_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('guests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('terms_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('meeting_sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('videoconference_id', 'varchar(64)', (c) =>
      c.notNull().references('videoconferences.id').onDelete('cascade'),
    )
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addColumn('end_reason', 'varchar(16)')
    .execute();
  // At most one open session per conference, even when two host tabs ask for a token at once.
  await db.schema
    .createIndex('meeting_sessions_open_idx')
    .on('meeting_sessions')
    .column('videoconference_id')
    .unique()
    .where(sql.ref('ended_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('meeting_sessions_vc_idx')
    .on('meeting_sessions')
    .columns(['videoconference_id', 'started_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('meeting_sessions').execute();
  await db.schema.dropTable('guests').execute();
  await db.schema.dropTable('videoconferences').execute();
}
