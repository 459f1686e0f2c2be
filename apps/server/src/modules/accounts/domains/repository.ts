import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export interface DomainRules {
  name: string;
  active: boolean;
  mailServerHosted: boolean;
  ssoOnly: boolean;
  freePlanLimit: number | null;
  /**
   * From when a one-factor password sign-in without a second factor must enrol one (the console's
   * security policy, read with the rules: one statement per sign-in); null: not required.
   */
  twoStepRequiredFrom: number | null;
  /** A browser may be trusted to skip the second step (the domain's policy; default true). */
  trustBrowsers: boolean;
}

export interface DomainChange {
  active?: boolean;
  mailServerHosted?: boolean;
  ssoOnly?: boolean;
  /** null removes the limit. */
  freePlanLimit?: number | null;
}

/** Per-domain rules (admin CLI) and the counts a free plan checks. `db` may be a transaction. */
export function domainsRepository(db: Kysely<Database>) {
  /** A domain without a row has the defaults: active, not hosted, password login, no limit. */
  async function rules(name: string): Promise<DomainRules> {
    // A domain with console settings always has its row here (domainSettingsRepository.set makes it).
    const row = await db
      .selectFrom('domains')
      .leftJoin('domain_settings', 'domain_settings.domain', 'domains.name')
      .select([
        'domains.active',
        'domains.mail_server_hosted',
        'domains.sso_only',
        'domains.free_plan_limit',
        'domain_settings.require_two_step',
        'domain_settings.two_step_grace_until',
        'domain_settings.trust_browsers',
      ])
      .where('domains.name', '=', name)
      .executeTakeFirst();
    return {
      name,
      active: row ? Boolean(row.active) : true,
      mailServerHosted: Boolean(row?.mail_server_hosted),
      ssoOnly: Boolean(row?.sso_only),
      freePlanLimit: row?.free_plan_limit ?? null,
      twoStepRequiredFrom: row?.require_two_step
        ? row.two_step_grace_until === null
          ? 0
          : Number(row.two_step_grace_until)
        : null,
      trustBrowsers: row?.trust_browsers === null || row?.trust_browsers === undefined || Boolean(row.trust_browsers),
    };
  }

  return {
    rules,

    async set(name: string, change: DomainChange): Promise<DomainRules> {
      const current = await rules(name);
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
      return rules(name);
    },

    async list(): Promise<DomainRules[]> {
      const rows = await db.selectFrom('domains').select('name').orderBy('name').execute();
      return Promise.all(rows.map((r) => rules(r.name)));
    },

    /** Confirmed accounts of a domain: what a free plan's limit counts. */
    async confirmedUsers(domain: string): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('domain', '=', domain)
        .where('confirmed_at', 'is not', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /**
     * Holds the domain's row until the caller's transaction ends, so that checks made after it (a free
     * seat) cannot race. The same statement on both databases: on PostgreSQL an UPDATE takes the row
     * lock (as SELECT … FOR UPDATE would, which SQLite does not parse); SQLite runs one write
     * transaction at a time and this write makes the caller's transaction that one.
     */
    async lock(name: string): Promise<void> {
      await db
        .updateTable('domains')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('name', '=', name)
        .execute();
    },
  };
}
