import type { Kysely } from 'kysely';

/**
 * The meeting lobby.
 * - `videoconferences.access`: who goes straight in ('open', 'organisation', 'restricted'). Meetings that
 *   exist before this migration keep today's behaviour ('open'); new ones take MEETING_DEFAULT_ACCESS.
 * - `meeting_cohosts`: signed-in people of the host's domain the host named; they admit and change the level.
 * - `meeting_lobby_requests`: one request to join per meeting and browser (the SHA-256 of its HttpOnly
 *   cookie, never the cookie itself); `denials` survives a new request from the same browser, so a person
 *   refused twice cannot ask again; `session_id` ties an admission to the session it was given in.
 * - `meeting_invitees`: addresses the host invited, each with a personal link past the lobby (the table
 *   keeps the SHA-256 of its token), revocable, and when it was first used.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('videoconferences')
    .addColumn('access', 'varchar(16)', (c) => c.notNull().defaultTo('open'))
    .execute();

  await db.schema
    .createTable('meeting_cohosts')
    .addColumn('videoconference_id', 'varchar(64)', (c) =>
      c.notNull().references('videoconferences.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('meeting_cohosts_pk', ['videoconference_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('meeting_lobby_requests')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('videoconference_id', 'varchar(64)', (c) =>
      c.notNull().references('videoconferences.id').onDelete('cascade'),
    )
    .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('subject', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('domain', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('denials', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('session_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('meeting_lobby_browser_idx')
    .on('meeting_lobby_requests')
    .columns(['videoconference_id', 'browser_hash'])
    .unique()
    .execute();
  await db.schema
    .createIndex('meeting_lobby_status_idx')
    .on('meeting_lobby_requests')
    .columns(['videoconference_id', 'status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('meeting_lobby_subject_idx')
    .on('meeting_lobby_requests')
    .columns(['videoconference_id', 'subject'])
    .execute();

  await db.schema
    .createTable('meeting_invitees')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('videoconference_id', 'varchar(64)', (c) =>
      c.notNull().references('videoconferences.id').onDelete('cascade'),
    )
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('joined_at', 'bigint')
    .addUniqueConstraint('meeting_invitees_email_uq', ['videoconference_id', 'email'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('meeting_invitees').execute();
  await db.schema.dropTable('meeting_lobby_requests').execute();
  await db.schema.dropTable('meeting_cohosts').execute();
  await db.schema.alterTable('videoconferences').dropColumn('access').execute();
}
