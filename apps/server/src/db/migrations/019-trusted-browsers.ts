import type { Kysely } from 'kysely';

/**
 * `domain_settings.trust_browsers`: whether the domain's people may tick "Trust this browser for 30
 * days" at the second step of a sign-in (1, the default: most domains want fewer codes typed on their
 * own laptops; 0 where every sign-in must show the second factor).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('domain_settings')
    .addColumn('trust_browsers', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domain_settings').dropColumn('trust_browsers').execute();
}
