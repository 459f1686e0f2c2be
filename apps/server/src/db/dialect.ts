/**
 * What differs between SQLite and PostgreSQL beyond what Kysely hides. Modules ask here rather than
 * looking at the configuration.
 */

/** A unique-constraint violation (two writers racing for one key): PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_*. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === '23505' || /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(code));
}
