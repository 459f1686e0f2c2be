import type { FastifyInstance } from 'fastify';
import { accountsAdmin } from '../modules/accounts/index.js';
import type { Job } from './job.js';

const EVERY_MS = 3_600_000;

type Accounts = ReturnType<typeof accountsAdmin>;

/**
 * Housekeeping that deletes rows nobody can use any more: once when the server is ready, then hourly.
 * Each run is a few batched DELETEs that any number of instances may run at once. A run in flight is
 * awaited on stop, so it never outlives the database connection.
 */
function purgeJob(app: FastifyInstance, name: string, what: string, run: (accounts: Accounts) => Promise<number>): Job {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const once = (accounts: Accounts) => {
    if (stopped || running) return;
    running = run(accounts)
      .then((count) => {
        if (count > 0) app.log.info({ job: name, count }, `${what} purged`);
      })
      .catch((err: unknown) => app.log.warn({ err, job: name }, `${what} purge failed`))
      .finally(() => (running = undefined));
  };
  return {
    name,
    start() {
      const accounts = accountsAdmin(app.db.kysely);
      once(accounts);
      timer = setInterval(() => once(accounts), EVERY_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** Expired codes (and the unmailed ones stored for unknown recovery addresses). */
export const codePurgeJob = (app: FastifyInstance) =>
  purgeJob(app, 'code-purge', 'expired codes', (accounts) => accounts.purgeExpiredCodes());

/** Ended (signed out, replaced, spent) and expired session rows (issue 14). */
export const sessionPurgeJob = (app: FastifyInstance) =>
  purgeJob(app, 'session-purge', 'ended sessions', (accounts) => accounts.purgeEndedSessions());

/** Expired single-sign-on requests, assertion replay entries and /auth hand-offs (issue 24). */
export const ssoPurgeJob = (app: FastifyInstance) =>
  purgeJob(app, 'sso-purge', 'expired single-sign-on state', (accounts) => accounts.purgeSso());
