import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { auditRepository, type NewAuditEvent } from './repository.js';

/**
 * The audit trail's public entry: every module records an event with `recordAudit(trx, …)` inside the
 * transaction of the change it describes, so the trail never tells of a change that was rolled back nor
 * misses one that was made. It is its own module (not part of admin/) because accounts writes to it and
 * admin reads accounts: the trail depends on nothing but the database.
 */
export function recordAudit(db: Kysely<Database>, event: NewAuditEvent): Promise<void> {
  return auditRepository(db).insert(event);
}

/** Deletes events older than `retentionDays` (the AUDIT_RETENTION_DAYS setting); returns how many. */
export function purgeOldAudit(db: Kysely<Database>, retentionDays: number, now = Date.now()): Promise<number> {
  return auditRepository(db).purgeBefore(now - retentionDays * 86_400_000);
}

export { auditRepository } from './repository.js';
export type { AuditCursor, AuditFilter, AuditParty, AuditRow, NewAuditEvent } from './repository.js';
export { auditCsv } from './csv.js';
