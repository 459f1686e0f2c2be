import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { mailSite, queueMail } from '../../plugins/mailer.js';
import { operatorAdmins, recheckClaims } from './admins.js';
import { operatorAuditCsv } from './audit.js';
import { operatorSetTrustBrowsers } from './rules.js';
import type { AdminDeps } from './deps.js';
import { announceRequests } from './requests.js';
import adminRoutes from './routes.js';

/**
 * The domain administrator's console (its public entry): who administers a domain (operator grants,
 * DNS proofs), the People page and its actions, sign-up rules, security policy, access requests and the
 * audit trail's views. It drives accounts through accounts' entry only; the trail itself is modules/audit.
 */
/** Per server (its database handle): the announcing job's wake-up, a hint only (the job also polls). */
const kicks = new WeakMap<object, () => void>();

function adminDeps(app: FastifyInstance, config: AppConfig): AdminDeps {
  return {
    db: app.db.kysely,
    config,
    mailer: app.mailer,
    announce: () => kicks.get(app.db)?.(),
  };
}

const adminModule: FastifyPluginAsync<{ config: AppConfig }> = async (app, { config }) => {
  await app.register(adminRoutes, { deps: adminDeps(app, config) });
};

export default adminModule;

/** Jobs (src/jobs/admin.ts): announce new access requests, re-check DNS claims. */
export const adminJobs = (app: FastifyInstance, config: AppConfig) => {
  const deps = adminDeps(app, config);
  return {
    announceRequests: () => announceRequests(deps),
    recheckClaims: (now?: number) => recheckClaims(deps, now),
    /** The routes call this after storing a request: the announcing job runs at once instead of at its next tick. */
    onAnnounce(listener: () => void) {
      kicks.set(app.db, listener);
    },
  };
};

/** The operator's commands (bin/admin.ts). */
export function adminCli(db: Kysely<Database>, config: AppConfig) {
  const mailer = {
    queue: (to: Kysely<Database>, message: Parameters<typeof queueMail>[1]) => queueMail(to, message, mailSite(config)),
    kick: () => undefined,
  };
  return {
    admins: operatorAdmins(db),
    auditCsv: (domain: string) => operatorAuditCsv(db, domain),
    setTrustBrowsers: (domain: string, on: boolean) => operatorSetTrustBrowsers(db, domain, on),
    recheckClaims: (now?: number) => recheckClaims({ db, config, mailer, announce: () => undefined }, now),
  };
}
