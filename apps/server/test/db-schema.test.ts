import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, isPostgresSuite, type TestApp } from './helpers.js';

/**
 * db/schema.ts is written by hand beside the migrations; this test keeps the two in agreement on the
 * database the suite runs on (SQLite, or PostgreSQL in the PostgreSQL suite): the migrated database is
 * introspected (Kysely) and compared with the types read from schema.ts (TypeScript's parser).
 */

interface ColumnType {
  /** What TypeScript sees: 'number' or 'string' (string-literal unions count as 'string'). */
  kind: 'number' | 'string';
  nullable: boolean;
  /** Generated<…>: the database fills it in when an insert leaves it out. */
  generated: boolean;
}
type Tables = Record<string, Record<string, ColumnType>>;

const SCHEMA_FILE = fileURLToPath(new URL('../src/db/schema.ts', import.meta.url));

function kindOf(node: ts.TypeNode): ColumnType['kind'] {
  if (node.kind === ts.SyntaxKind.NumberKeyword) return 'number';
  if (node.kind === ts.SyntaxKind.StringKeyword) return 'string';
  if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return 'string';
  throw new Error(`schema.ts: unsupported column type ${ts.SyntaxKind[node.kind]}`);
}

function columnType(node: ts.TypeNode): ColumnType {
  if (ts.isTypeReferenceNode(node) && node.typeName.getText() === 'Generated' && node.typeArguments?.[0]) {
    return { ...columnType(node.typeArguments[0]), generated: true };
  }
  const parts = ts.isUnionTypeNode(node) ? [...node.types] : [node];
  const isNull = (t: ts.TypeNode) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword;
  const kinds = new Set(parts.filter((t) => !isNull(t)).map(kindOf));
  if (kinds.size !== 1) throw new Error(`schema.ts: mixed column type ${node.getText()}`);
  return { kind: [...kinds][0]!, nullable: parts.some(isNull), generated: false };
}

/** The `Database` interface of schema.ts: table name → column → type. */
function schemaTypes(): Tables {
  const source = ts.createSourceFile(SCHEMA_FILE, readFileSync(SCHEMA_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map(
    source.statements.filter(ts.isInterfaceDeclaration).map((decl) => [decl.name.text, decl] as const),
  );
  const members = (name: string) => {
    const decl = interfaces.get(name);
    if (!decl) throw new Error(`schema.ts: no interface ${name}`);
    return decl.members.filter(ts.isPropertySignature).map((m) => [m.name.getText(), m.type!] as const);
  };
  return Object.fromEntries(
    members('Database').map(([table, type]) => [
      table,
      Object.fromEntries(members(type.getText()).map(([column, node]) => [column, columnType(node)])),
    ]),
  );
}

/** Integer columns (epoch milliseconds, counters, 0/1 booleans) are numbers; the rest text. */
const kindOfSql = (dataType: string): ColumnType['kind'] =>
  /^(integer|bigint|int[248]?|smallint)$/i.test(dataType) ? 'number' : 'string';

describe(`db/schema.ts matches the migrated ${isPostgresSuite() ? 'PostgreSQL' : 'SQLite'} database`, () => {
  let t: TestApp;
  let types: Tables;
  let tables: Awaited<ReturnType<TestApp['app']['db']['kysely']['introspection']['getTables']>>;
  /** "table.column" of primary-key columns on SQLite, which reports a text PRIMARY KEY as nullable (a legacy quirk). */
  const sqlitePrimaryKeys = new Set<string>();
  beforeAll(async () => {
    t = await createTestApp();
    types = schemaTypes();
    tables = await t.app.db.kysely.introspection.getTables();
    if (isPostgresSuite()) return;
    for (const table of tables) {
      const { rows } = await sql<{
        name: string;
      }>`select name from pragma_table_info(${table.name}) where pk > 0`.execute(t.app.db.kysely);
      for (const row of rows) sqlitePrimaryKeys.add(`${table.name}.${row.name}`);
    }
  });
  afterAll(() => t.close());

  it('has a type for every table, and a table for every type', () => {
    expect(tables.map((table) => table.name).sort()).toEqual(Object.keys(types).sort());
  });

  it('has the same columns, nullability and number/text kind on both sides', () => {
    const fromDb = Object.fromEntries(
      tables.map((table) => [
        table.name,
        Object.fromEntries(
          table.columns.map((c) => [
            c.name,
            {
              kind: kindOfSql(c.dataType),
              nullable: c.isNullable && !sqlitePrimaryKeys.has(`${table.name}.${c.name}`),
            },
          ]),
        ),
      ]),
    );
    const fromTypes = Object.fromEntries(
      Object.entries(types).map(([table, columns]) => [
        table,
        Object.fromEntries(Object.entries(columns).map(([name, c]) => [name, { kind: c.kind, nullable: c.nullable }])),
      ]),
    );
    expect(fromTypes).toEqual(fromDb);
  });

  it('marks a column Generated only where the database has a default for it', () => {
    const withoutDefault = tables.flatMap((table) =>
      table.columns
        .filter((c) => types[table.name]?.[c.name]?.generated && !c.hasDefaultValue && !c.isAutoIncrementing)
        .map((c) => `${table.name}.${c.name}`),
    );
    expect(withoutDefault).toEqual([]);
    // The check reads Generated<…> at all: the schema has such columns.
    expect(Object.values(types).some((columns) => Object.values(columns).some((c) => c.generated))).toBe(true);
  });
});
