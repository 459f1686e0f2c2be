import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { Mailer } from '../../plugins/mailer.js';

/** What the console's services need: plain values, no HTTP. */
export interface AdminDeps {
  db: Kysely<Database>;
  config: AppConfig;
  mailer: Pick<Mailer, 'queue' | 'kick'>;
  /** Wakes the request notifier (after a request was stored). */
  announce(): void;
}
