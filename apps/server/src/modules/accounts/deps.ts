import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { Sessions } from '../../plugins/auth.js';
import type { Mailer } from '../../plugins/mailer.js';

/** What the account services need: plain values, no HTTP. Built once from the Fastify instance. */
export interface AccountsDeps {
  db: Kysely<Database>;
  config: AppConfig;
  mailer: Mailer;
  sessions: Sessions;
}

export const accountsDeps = (app: FastifyInstance, config: AppConfig): AccountsDeps => ({
  db: app.db.kysely,
  config,
  mailer: app.mailer,
  sessions: app.sessions,
});
