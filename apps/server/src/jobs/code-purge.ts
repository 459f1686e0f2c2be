import type { FastifyInstance } from 'fastify';
import { accountsAdmin } from '../modules/accounts/index.js';
import type { Job } from './job.js';

const EVERY_MS = 3_600_000;

/** Expired codes (and the unmailed ones stored for unknown recovery addresses) are purged hourly. */
export function codePurgeJob(app: FastifyInstance): Job {
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'code-purge',
    start() {
      const accounts = accountsAdmin(app.db.kysely);
      timer = setInterval(() => {
        void accounts.purgeExpiredCodes().catch((err: unknown) => app.log.warn({ err }, 'code purge failed'));
      }, EVERY_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      return Promise.resolve();
    },
  };
}
