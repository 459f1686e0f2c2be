import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export interface DomainRules {
  name: string;
  active: boolean;
  mailServerHosted: boolean;
  ssoOnly: boolean;
  freePlanLimit: number | null;
}

/** A domain without a row has the defaults: active, not hosted, password login, no limit. */
export async function domainRules(db: Kysely<Database>, name: string): Promise<DomainRules> {
  const row = await db.selectFrom('domains').selectAll().where('name', '=', name).executeTakeFirst();
  return {
    name,
    active: row ? Boolean(row.active) : true,
    mailServerHosted: Boolean(row?.mail_server_hosted),
    ssoOnly: Boolean(row?.sso_only),
    freePlanLimit: row?.free_plan_limit ?? null,
  };
}

export interface DomainChange {
  active?: boolean;
  mailServerHosted?: boolean;
  ssoOnly?: boolean;
  /** null removes the limit. */
  freePlanLimit?: number | null;
}

export async function setDomainRules(db: Kysely<Database>, name: string, change: DomainChange): Promise<DomainRules> {
  const current = await domainRules(db, name);
  const next = {
    active: Number(change.active ?? current.active),
    mail_server_hosted: Number(change.mailServerHosted ?? current.mailServerHosted),
    sso_only: Number(change.ssoOnly ?? current.ssoOnly),
    free_plan_limit: change.freePlanLimit === undefined ? current.freePlanLimit : change.freePlanLimit,
    updated_at: Date.now(),
  };
  await db
    .insertInto('domains')
    .values({ name, ...next })
    .onConflict((oc) => oc.column('name').doUpdateSet(next))
    .execute();
  return domainRules(db, name);
}

export async function listDomains(db: Kysely<Database>): Promise<DomainRules[]> {
  const rows = await db.selectFrom('domains').select('name').orderBy('name').execute();
  return Promise.all(rows.map((r) => domainRules(db, r.name)));
}

/** Confirmed accounts of a domain: what a free plan's limit counts. */
export async function confirmedUsersOf(db: Kysely<Database>, domain: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domain', '=', domain)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
