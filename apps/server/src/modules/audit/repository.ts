import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { emailDomain, type AuditKind } from '@suite/contract';
import type { Selectable } from 'kysely';
import type { AuditEventsTable, Database } from '../../db/schema.js';

/** Someone an event names: the acting person or the one it was done to. */
export interface AuditParty {
  id: string | null;
  email: string;
}

export interface NewAuditEvent {
  kind: AuditKind;
  /** What exactly happened ('password', 'deactivate', 'require_two_step', …). */
  action: string;
  /** The domain whose trail it joins; default: the target's (else the actor's) address's domain. */
  domain?: string;
  actor?: AuditParty | null;
  target?: AuditParty | null;
  /** A failure's reason (an error code), short. */
  reason?: string | null;
  ip?: string | null;
  details?: Record<string, string | number | boolean | null>;
  at?: number;
}

export type AuditRow = Selectable<AuditEventsTable>;

export interface AuditFilter {
  domain: string;
  /** An address (exact, lower-case) or an account id: events done by or to them. */
  person?: string | undefined;
  kind?: AuditKind | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** Newest first; the cursor is the (at, id) of the last row of the previous page. */
export interface AuditCursor {
  at: number;
  id: string;
}

/** Ids sort by time, then by chance: two events of one millisecond still have an order. */
const newId = (at: number) => `${at.toString(36).padStart(10, '0')}${randomBytes(8).toString('hex')}`;

const clip = (value: string | null | undefined, max: number) => (value == null ? null : value.slice(0, max));

export function auditRepository(db: Kysely<Database>) {
  return {
    async insert(event: NewAuditEvent): Promise<void> {
      const at = event.at ?? Date.now();
      const domain = event.domain ?? emailDomain(event.target?.email ?? event.actor?.email ?? '');
      await db
        .insertInto('audit_events')
        .values({
          id: newId(at),
          domain,
          at,
          kind: event.kind,
          action: event.action.slice(0, 64),
          actor_id: event.actor?.id ?? null,
          actor_email: clip(event.actor?.email, 320),
          target_id: event.target?.id ?? null,
          target_email: clip(event.target?.email, 320),
          reason: clip(event.reason, 200),
          ip: clip(event.ip, 64),
          details: JSON.stringify(event.details ?? {}).slice(0, 4000),
        })
        .execute();
    },

    /** One page, newest first, after `cursor`. */
    page(filter: AuditFilter, cursor: AuditCursor | null, limit: number): Promise<AuditRow[]> {
      let query = db.selectFrom('audit_events').selectAll().where('domain', '=', filter.domain);
      if (filter.kind) query = query.where('kind', '=', filter.kind);
      if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('at', '<', filter.to);
      const person = filter.person;
      if (person) {
        query = person.includes('@')
          ? query.where((eb) => eb.or([eb('actor_email', '=', person), eb('target_email', '=', person)]))
          : query.where((eb) => eb.or([eb('actor_id', '=', person), eb('target_id', '=', person)]));
      }
      if (cursor) {
        query = query.where((eb) =>
          eb.or([eb('at', '<', cursor.at), eb.and([eb('at', '=', cursor.at), eb('id', '<', cursor.id)])]),
        );
      }
      return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** The latest sign-in of each of these accounts (epoch ms). */
    async lastSignIns(userIds: readonly string[]): Promise<Map<string, number>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('audit_events')
        .select(['target_id', (eb) => eb.fn.max('at').as('at')])
        .where('target_id', 'in', userIds)
        .where('kind', '=', 'sign_in')
        .groupBy('target_id')
        .execute();
      return new Map(rows.map((r) => [String(r.target_id), Number(r.at)]));
    },

    /** Deletes events older than `before`, in batches (a big backlog never holds a long lock). */
    async purgeBefore(before: number, batch = 1000): Promise<number> {
      let deleted = 0;
      for (;;) {
        const ids = await db.selectFrom('audit_events').select('id').where('at', '<', before).limit(batch).execute();
        if (ids.length === 0) return deleted;
        const done = await db
          .deleteFrom('audit_events')
          .where(
            'id',
            'in',
            ids.map((r) => r.id),
          )
          .executeTakeFirst();
        deleted += Number(done.numDeletedRows);
        if (ids.length < batch) return deleted;
      }
    },
  };
}
