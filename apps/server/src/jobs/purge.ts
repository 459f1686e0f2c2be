import type { FastifyInstance } from 'fastify';
import { accountsAdmin } from '../modules/accounts/index.js';
import { purgeAbandonedUploads } from '../modules/files/index.js';
import { purgeOldLobbyRequests } from '../modules/meetings/index.js';
import { purgeOldAudit } from '../modules/audit/index.js';
import { outboxRepository } from '../plugins/outbox-repository.js';
import type { Job } from './job.js';

const EVERY_MS = 3_600_000;

/**
 * Housekeeping that deletes rows nobody can use any more: once when the server is ready, then hourly.
 * Each run is a few batched DELETEs that any number of instances may run at once. A run in flight is
 * awaited on stop, so it never outlives the database connection.
 */
function purgeJob(app: FastifyInstance, name: string, what: string, run: () => Promise<number>): Job {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const once = () => {
    if (stopped || running) return;
    running = run()
      .then((count) => {
        if (count > 0) app.log.info({ job: name, count }, `${what} purged`);
      })
      .catch((err: unknown) => app.log.warn({ err, job: name }, `${what} purge failed`))
      .finally(() => (running = undefined));
  };
  return {
    name,
    start() {
      once();
      timer = setInterval(once, EVERY_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** Expired codes (and the unmailed ones stored for unknown recovery addresses) and expired flow state. */
export const codePurgeJob = (app: FastifyInstance) =>
  purgeJob(app, 'code-purge', 'expired codes', () => accountsAdmin(app.db.kysely).purgeExpiredCodes());

/** Ended (signed out, replaced, spent) and expired session rows. */
export const sessionPurgeJob = (app: FastifyInstance) =>
  purgeJob(app, 'session-purge', 'ended sessions', () => accountsAdmin(app.db.kysely).purgeEndedSessions());

/** Meeting lobby requests not used for LOBBY_RETENTION_DAYS (a room's knocks are not kept forever). */
export const lobbyPurgeJob = (app: FastifyInstance) =>
  purgeJob(app, 'lobby-purge', 'old lobby requests', () => purgeOldLobbyRequests(app.db.kysely));

/** Delivered and given-up mails (bodies already cleared), kept a week for support questions. */
export const outboxPurgeJob = (app: FastifyInstance) =>
  purgeJob(app, 'outbox-purge', 'old outbox rows', () => outboxRepository(app.db.kysely).purgeDone());

/** Objects of uploads whose instance died before the file's row was written (their holds expired). */
export const uploadPurgeJob = (app: FastifyInstance) =>
  purgeJob(app, 'upload-purge', 'abandoned upload objects', () => purgeAbandonedUploads(app.db.kysely, app.storage));

/** Audit events older than the AUDIT_RETENTION_DAYS setting. */
export const auditPurgeJob = (app: FastifyInstance) =>
  purgeJob(app, 'audit-purge', 'old audit events', () => purgeOldAudit(app.db.kysely, app.config.auditRetentionDays));
