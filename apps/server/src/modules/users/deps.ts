import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { Sessions } from '../../plugins/auth.js';
import type { Mailer } from '../../plugins/mailer.js';

/** What the account services need; built from the Fastify instance by the routes. */
export interface AccountsDeps {
  db: Kysely<Database>;
  config: AppConfig;
  mailer: Mailer;
  sessions: Sessions;
}
