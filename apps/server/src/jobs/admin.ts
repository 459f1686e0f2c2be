import type { FastifyInstance } from 'fastify';
import { adminJobs } from '../modules/admin/index.js';
import type { Job } from './job.js';

/** New access requests are announced within this long even when stored by another instance (or sign-up). */
const ANNOUNCE_EVERY_MS = 5_000;
/** Claims are due once a day each (ADMIN_CLAIM_RECHECK_MS); the job looks for due ones hourly. */
const CLAIMS_EVERY_MS = 3_600_000;

function loop(app: FastifyInstance, name: string, everyMs: number, run: () => Promise<number>) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const once = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .then((count) => {
        if (count > 0) app.log.info({ job: name, count }, `${name}: ${count}`);
      })
      .catch((err: unknown) => app.log.warn({ err, job: name }, `${name} failed`))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          once();
        }
      });
  };
  return {
    once,
    job: {
      name,
      start() {
        once();
        timer = setInterval(once, everyMs);
        timer.unref();
      },
      async stop() {
        stopped = true;
        clearInterval(timer);
        await running;
      },
    } satisfies Job,
  };
}

/** Mails the domain's administrators about each new access request (woken at once by the request route). */
export function adminAnnounceJob(app: FastifyInstance): Job {
  const jobs = adminJobs(app, app.config);
  const { once, job } = loop(app, 'admin-announce', ANNOUNCE_EVERY_MS, jobs.announceRequests);
  jobs.onAnnounce(once);
  return job;
}

/** The daily DNS check of proven domains (a vanished record: admins mailed, claim dropped after the grace). */
export function adminClaimsJob(app: FastifyInstance): Job {
  const jobs = adminJobs(app, app.config);
  return loop(app, 'admin-claims', CLAIMS_EVERY_MS, () => jobs.recheckClaims()).job;
}
