import { AUDIT_CSV_COLUMNS } from '@suite/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { auditRepository, type AuditCursor, type AuditFilter, type AuditRow } from './repository.js';

/** Rows read per query while exporting: memory stays at one batch whatever the trail's size. */
const EXPORT_BATCH = 1000;

/**
 * One CSV cell (RFC 4180 quoting). A cell a spreadsheet would read as a formula (=, +, -, @, tab, CR)
 * gets a leading apostrophe: an address or a reason typed by an attacker must not run in the admin's sheet.
 */
function csvCell(value: unknown): string {
  let text = value == null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (row: AuditRow) =>
  `${[
    new Date(Number(row.at)).toISOString(),
    row.kind,
    row.action,
    row.actor_email,
    row.target_email,
    row.reason,
    row.ip,
    row.details === '{}' ? '' : row.details,
  ]
    .map(csvCell)
    .join(',')}\r\n`;

/**
 * The trail as CSV, newest first, read in keyset batches as the consumer pulls (Readable.from over this
 * generator waits for the socket to drain before asking for more).
 */
export async function* auditCsv(db: Kysely<Database>, filter: AuditFilter): AsyncGenerator<string> {
  yield `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;
  let cursor: AuditCursor | null = null;
  for (;;) {
    const rows = await auditRepository(db).page(filter, cursor, EXPORT_BATCH);
    if (rows.length > 0) yield rows.map(line).join('');
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1] as AuditRow;
    cursor = { at: Number(last.at), id: last.id };
  }
}
