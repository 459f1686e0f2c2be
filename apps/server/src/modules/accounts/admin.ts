import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { codesRepository } from './codes/repository.js';
import { domainsRepository, type DomainChange } from './domains/repository.js';
import { usersRepository } from './identity/repository.js';
import { purgeEndedSessions } from './identity/sessions.js';
import { createInvite, type NewInvite } from './invites/service.js';

/** What operators do outside HTTP: the admin CLI's commands and the server's housekeeping jobs. */
export function accountsAdmin(db: Kysely<Database>) {
  return {
    listDomains: () => domainsRepository(db).list(),
    setDomain: (name: string, change: DomainChange) => domainsRepository(db).set(name, change),
    listUsers: (domain?: string) => usersRepository(db).list(domain),
    /** false: no account has that address. */
    setUserActive: (email: string, active: boolean) => usersRepository(db).setActive(email, active),
    /** Queues an invitation mail (the running server delivers it) and returns the invitation link. */
    invite: (config: AppConfig, input: NewInvite) => createInvite(db, config, input),
    /** Deletes codes expired more than a day ago; returns how many. */
    purgeExpiredCodes: (now?: number) => codesRepository(db).purgeExpired(now),
    /** Deletes ended and expired session rows, in batches; returns how many. */
    purgeEndedSessions: (now?: number, batch?: number) => purgeEndedSessions(db, now, batch),
  };
}
