import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { migrate, openDatabase, type Db } from '../db/database.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** Opens the database (SQLite by default, PostgreSQL with DATABASE_URL) and applies migrations. */
export default fp(async function db(app: FastifyInstance, opts: { dataDir: string; databaseUrl?: string | undefined }) {
  const database = openDatabase({
    ...opts,
    onIdleError: (error) => app.log.warn({ err: error }, 'database connection lost'),
  });
  await migrate(database);
  app.decorate('db', database);
  app.addHook('onClose', async () => database.close());
});
