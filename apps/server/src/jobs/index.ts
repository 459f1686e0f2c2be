import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Job } from './job.js';
import { mailOutboxJob } from './mail-outbox.js';
import { adminAnnounceJob, adminClaimsJob } from './admin.js';
import {
  auditPurgeJob,
  codePurgeJob,
  lobbyPurgeJob,
  outboxPurgeJob,
  sessionPurgeJob,
  uploadPurgeJob,
} from './purge.js';

/**
 * Background work runs with the server's lifecycle: every job starts when the server is ready and is
 * stopped (awaited) when it closes, before the plugins it uses (mailer, database) close theirs.
 */
export default fp(
  async function jobs(app: FastifyInstance) {
    const all: Job[] = [
      mailOutboxJob(app),
      codePurgeJob(app),
      sessionPurgeJob(app),
      outboxPurgeJob(app),
      uploadPurgeJob(app),
      lobbyPurgeJob(app),
      auditPurgeJob(app),
      adminAnnounceJob(app),
      adminClaimsJob(app),
    ];
    app.addHook('onReady', async () => {
      for (const job of all) job.start();
    });
    app.addHook('onClose', async () => {
      await Promise.all(all.map((job) => job.stop()));
    });
  },
  { name: 'jobs', dependencies: ['mailer'] },
);
