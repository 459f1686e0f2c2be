import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { migrate, openDatabase, type Db } from '../db/database.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** `listener` is told when a database connection is lost (PostgreSQL restarted or gone). */
    onDatabaseLost(listener: () => void): void;
  }
}

/** Opens the database (SQLite by default, PostgreSQL with DATABASE_URL) and applies migrations. */
async function db(app: FastifyInstance, opts: { dataDir: string; databaseUrl?: string | undefined }) {
  const lost: Array<() => void> = [];
  const database = openDatabase({
    ...opts,
    onIdleError: (error) => {
      app.log.warn({ err: error }, 'database connection lost');
      for (const listener of lost) listener();
    },
  });
  app.decorate('onDatabaseLost', (listener: () => void) => void lost.push(listener));
  await migrate(database);
  app.decorate('db', database);
  app.addHook('onClose', async () => database.close());
}

export default fp(db, { name: 'db' });
