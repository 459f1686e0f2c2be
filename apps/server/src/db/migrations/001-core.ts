import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('first_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'varchar(8)', (c) => c.notNull().defaultTo('en'))
    .addColumn('preferences', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('confirmed_at', 'bigint')
    .addColumn('registered_at', 'bigint')
    .addColumn('sessions_valid_after', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('invited_by', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('profiles')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('profiles_user_idx').on('profiles').column('user_id').execute();

  await db.schema
    .createTable('domains')
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('mail_server_hosted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sso_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('free_plan_limit', 'integer')
    .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('domains').execute();
  await db.schema.dropTable('profiles').execute();
  await db.schema.dropTable('users').execute();
}
