import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { KeyRing } from '../../keys.js';
import { codesRepository } from './codes/repository.js';
import { domainsRepository, type DomainChange } from './domains/repository.js';
import { usersRepository } from './identity/repository.js';
import { sessionsRepository } from '../../plugins/sessions-repository.js';
import { createInvite, writeInvite, type NewInvite } from './invites/service.js';
import { invitesRepository } from './invites/repository.js';
import { domainSettingsRepository, type DomainSettingsChange } from './domains/settings.js';
import { connectionsRepository } from './sso/connections.js';
import { certificatesOf, refreshAll, refreshConnection } from './sso/metadata-refresh.js';
import { spKeys } from './strategies/saml/sp-keys.js';
import { flowState } from './state/repository.js';
import type { MailMessage } from '../../emails/index.js';
import { mailSite, queueMail } from '../../plugins/mailer.js';
import { holderOf, noteFactorChange } from './identity/factor-changes.js';
import { totpRepository } from './strategies/totp/repository.js';
import { passkeysRepository } from './strategies/webauthn/repository.js';

/** What operators do outside HTTP: the admin CLI's commands and the server's housekeeping jobs. */
export function accountsAdmin(db: Kysely<Database>) {
  return {
    listDomains: () => domainsRepository(db).list(),
    /** Making a domain inactive also ends its people's sessions at once (re-activating brings none back). */
    setDomain: (name: string, change: DomainChange) =>
      db.transaction().execute(async (trx) => {
        const rules = await domainsRepository(trx).set(name, change);
        if (change.active === false) await sessionsRepository(trx).revokeDomain(name);
        return rules;
      }),
    listUsers: (domain?: string) => usersRepository(db).list(domain),
    /** false: no account has that address. */
    /** Deactivating ends the account's sessions; they stay ended when it is activated again. */
    setUserActive: (email: string, active: boolean) =>
      db.transaction().execute(async (trx) => {
        const user = await usersRepository(trx).byEmail(email);
        if (!user) return false;
        await usersRepository(trx).setActive(email, active);
        if (!active) await sessionsRepository(trx).revoke(user.id);
        return true;
      }),
    /**
     * An operator's reset of a person's factors (they lost their phone, or a thief added his): two-step
     * verification off, every passkey removed, every session ended, a notice mailed (with its "this
     * wasn't me" link, which then only ends the sessions). false: no account has that address.
     */
    resetFactors: async (config: AppConfig, email: string) => {
      const done = await db.transaction().execute(async (trx) => {
        const user = await usersRepository(trx).byEmail(email);
        if (!user) return false;
        await totpRepository(trx).remove(user.id);
        await passkeysRepository(trx).removeAll(user.id);
        await flowState(trx).dropSubject('second-step', user.id);
        const mailer = {
          queue: (to: Kysely<Database>, message: MailMessage) => queueMail(to, message, mailSite(config)),
        };
        await noteFactorChange(trx, mailer, holderOf(user), { kind: 'factors-reset' }, null);
        return true;
      });
      return done;
    },
    /** Queues an invitation mail (the running server delivers it) and returns the invitation link. */
    invite: (config: AppConfig, input: NewInvite) => createInvite(db, config, input),
    /** Deletes codes expired more than a day ago, and expired flow state (challenges, pending steps, SSO
     * requests, replay entries, hand-offs); returns how many. */
    purgeExpiredCodes: async (now?: number) =>
      (await codesRepository(db).purgeExpired(now)) + (await flowState(db).purgeExpired(now)),
    /** Single-sign-on connections per domain (client secrets sealed with the SSO key ring). */
    ssoConnections: (ring: KeyRing) => connectionsRepository(db, ring),
    /** Reads every SAML connection's metadata URL again (the daily job). */
    refreshSsoMetadata: (ring: KeyRing) => refreshAll(db, ring),
    /** Reads one connection's metadata URL again (`sso refresh`); null: no connection for the domain. */
    refreshSsoConnection: async (ring: KeyRing, domain: string) => {
      const connection = await connectionsRepository(db, ring).get(domain);
      return connection ? refreshConnection(db, ring, connection) : null;
    },
    /** The IdP signing certificates of every SAML connection, with their ends. */
    ssoCertificates: async (ring: KeyRing) =>
      (await connectionsRepository(db, ring).list()).flatMap((c) =>
        c.protocol === 'saml' ? [{ id: c.id, domain: c.domain, certificates: certificatesOf(c.settings) }] : [],
      ),
    /** true the first time today (over all instances) that `what` is noticed: a warning logged once a day. */
    firstNoticeToday: (what: string) => flowState(db).firstUse('sso-notice', what, 24 * 3600_000),
    /** Our SAML service provider's key pairs (`sso sp-key show|rotate`); `entityId`: our metadata URL. */
    ssoSpKeys: (ring: KeyRing, entityId: string) => spKeys(db, ring, entityId),
    /**
     * The domain administrator's console (modules/admin) calls these with its transaction (`db`), so each
     * change and its audit event commit together. A domain's rules and its console settings:
     */
    domainRules: (name: string) => domainsRepository(db).rules(name),
    setDomainRules: (name: string, change: DomainChange) => domainsRepository(db).set(name, change),
    domainSettings: (name: string) => domainSettingsRepository(db).get(name),
    setDomainSettings: (name: string, change: DomainSettingsChange) => domainSettingsRepository(db).set(name, change),
    confirmedUsers: (domain: string) => domainsRepository(db).confirmedUsers(domain),
    userById: (id: string) => usersRepository(db).byId(id),
    userByEmail: (email: string) => usersRepository(db).byEmail(email),
    /** Deactivating ends every session at once (every instance checks the row on each request). */
    setActive: async (user: { id: string; email: string }, active: boolean) => {
      await usersRepository(db).setActive(user.email, active);
      if (!active) await sessionsRepository(db).revoke(user.id);
    },
    endSessions: (userId: string) => sessionsRepository(db).revoke(userId),
    /** Two-step verification off and/or every passkey removed, sessions ended, the person mailed what was reset. */
    resetFactorsOf: async (
      config: AppConfig,
      user: Parameters<typeof holderOf>[0],
      what: { totp: boolean; passkeys: boolean },
    ) => {
      if (what.totp) {
        await totpRepository(db).remove(user.id);
        await flowState(db).dropSubject('second-step', user.id);
      }
      if (what.passkeys) await passkeysRepository(db).removeAll(user.id);
      const mailer = {
        queue: (to: Kysely<Database>, message: MailMessage) => queueMail(to, message, mailSite(config)),
      };
      // The mail names what was reset: a person who lost only their phone keeps their passkeys.
      const kind = what.totp && what.passkeys ? 'factors-reset' : what.totp ? 'two-step-reset' : 'passkeys-reset';
      await noteFactorChange(db, mailer, holderOf(user), { kind }, null);
    },
    /** An invitation written with the caller's transaction (its mail queued with it). */
    queueInvite: (config: AppConfig, input: NewInvite) => writeInvite(db, config, input),
    /** Invitations of a domain not accepted nor expired, by address; `after`: keyset on the address. */
    pendingInvites: (domain: string, now: number) => invitesRepository(db).pendingOfDomain(domain, now),
    /** Deletes ended and expired session rows, in batches; returns how many. */
    purgeEndedSessions: (now?: number, batch?: number) => sessionsRepository(db).purgeEnded(now, batch),
  };
}
