import { Readable } from 'node:stream';
import { ADMIN_PAGE_SIZE, type AuditEvent, type AuditKind, type AuditPage, type AuditQuery } from '@suite/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { SessionUser } from '../../plugins/auth.js';
import { auditCsv, auditRepository, type AuditFilter, type AuditRow } from '../audit/index.js';
import type { AdminDeps } from './deps.js';
import { requireAdmin } from './guard.js';
import { decodeCursor, encodeCursor, iso } from './http.js';

function detailsOf(raw: string): AuditEvent['details'] {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as AuditEvent['details']) : {};
  } catch {
    return {};
  }
}

const view = (r: AuditRow): AuditEvent => ({
  id: r.id,
  at: iso(r.at) as string,
  kind: r.kind as AuditKind,
  action: r.action,
  actor_email: r.actor_email,
  target_email: r.target_email,
  reason: r.reason,
  ip: r.ip,
  details: detailsOf(r.details),
});

const filterOf = (domain: string, query: Omit<AuditQuery, 'cursor' | 'limit'>): AuditFilter => ({
  domain,
  person: query.person?.includes('@') ? query.person.toLowerCase() : query.person,
  kind: query.kind,
  from: query.from ? Date.parse(query.from) : undefined,
  to: query.to ? Date.parse(query.to) : undefined,
});

export async function listAudit(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  query: AuditQuery,
): Promise<AuditPage> {
  await requireAdmin(deps.db, user, domain);
  const limit = query.limit ?? ADMIN_PAGE_SIZE;
  const after = decodeCursor(query.cursor, ['number', 'string']) as [number, string] | null;
  const rows = await auditRepository(deps.db).page(
    filterOf(domain, query),
    after ? { at: after[0], id: after[1] } : null,
    limit + 1,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    events: page.map(view),
    next_cursor: rows.length > limit && last ? encodeCursor([Number(last.at), last.id]) : null,
  };
}

/** The CSV export as a stream: batches are read as the client takes them (constant memory). */
export async function exportAudit(
  deps: AdminDeps,
  user: SessionUser,
  domain: string,
  query: Omit<AuditQuery, 'cursor' | 'limit'>,
): Promise<Readable> {
  await requireAdmin(deps.db, user, domain);
  return Readable.from(auditCsv(deps.db, filterOf(domain, query)), { objectMode: false });
}

/** The operator's export (bin/admin.ts): every event of the domain, written line batch by batch. */
export function operatorAuditCsv(db: Kysely<Database>, domain: string): AsyncGenerator<string> {
  return auditCsv(db, { domain });
}
