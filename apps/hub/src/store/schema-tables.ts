import type { Queryable } from "./database.js";

/**
 * What the hub's schema holds, asked of either database: its tables, their columns and the tables each one
 * references. For what walks every table (the SQLite -> PostgreSQL copy, tests that check nothing was
 * written) without a list to keep in step with the migrations.
 */

/** Bookkeeping only one database has (PostgreSQL records its schema version in a table; SQLite in a pragma). */
const BOOKKEEPING = new Set(["schema_version"]);

/**
 * Indexes kept as tables, rebuilt from the other tables (search/search-migration.ts): a copy leaves them out
 * and the target rebuilds them (its triggers queue the copied rows; its start queues the rest).
 */
const DERIVED = new Set(["search_docs", "search_pending"]);

/** The hub's tables (not the database's own, not bookkeeping), by name. */
export async function listTables(q: Queryable): Promise<string[]> {
  const rows =
    q.dialect === "sqlite"
      ? await q.all<{ name: string }>(
          // pragma_table_list tells FTS5 tables ('virtual') and their storage ('shadow') from plain ones.
          "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        )
      : await q.all<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables " +
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
        );
  return rows.map((row) => row.name).filter((name) => !BOOKKEEPING.has(name) && !DERIVED.has(name));
}

/** A table's columns, in their declared order. */
export async function tableColumns(q: Queryable, table: string): Promise<string[]> {
  const rows =
    q.dialect === "sqlite"
      ? await q.all<{ name: string }>("SELECT name FROM pragma_table_info(?) ORDER BY cid", [table])
      : await q.all<{ name: string }>(
          "SELECT column_name AS name FROM information_schema.columns " +
            "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
          [table],
        );
  return rows.map((row) => row.name);
}

/** A table's primary key columns, in key order (empty when it has none). */
export async function primaryKeyColumns(q: Queryable, table: string): Promise<string[]> {
  const rows =
    q.dialect === "sqlite"
      ? await q.all<{ name: string }>("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", [
          table,
        ])
      : await q.all<{ name: string }>(
          "SELECT a.attname AS name FROM pg_index i " +
            "JOIN pg_class t ON t.oid = i.indrelid JOIN unnest(i.indkey) WITH ORDINALITY AS k(attnum, position) ON true " +
            "JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum " +
            "WHERE i.indisprimary AND t.relname = ? AND t.relnamespace = current_schema()::regnamespace " +
            "ORDER BY k.position",
          [table],
        );
  return rows.map((row) => row.name);
}

/** The other tables `table` has foreign keys to (itself excluded). */
export async function referencedTables(q: Queryable, table: string): Promise<string[]> {
  const rows =
    q.dialect === "sqlite"
      ? await q.all<{ name: string }>('SELECT DISTINCT "table" AS name FROM pragma_foreign_key_list(?)', [
          table,
        ])
      : await q.all<{ name: string }>(
          "SELECT DISTINCT target.relname AS name FROM pg_constraint c " +
            "JOIN pg_class source ON source.oid = c.conrelid JOIN pg_class target ON target.oid = c.confrelid " +
            "WHERE c.contype = 'f' AND source.relname = ? AND source.relnamespace = current_schema()::regnamespace",
          [table],
        );
  return rows.map((row) => row.name).filter((name) => name !== table);
}

/** The tables ordered so that each comes after every table it references (inserting in this order works). */
export async function tablesInDependencyOrder(q: Queryable): Promise<string[]> {
  const tables = await listTables(q);
  const references = new Map<string, string[]>();
  for (const table of tables) references.set(table, await referencedTables(q, table));
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (placed.has(table)) return;
    if (visiting.has(table)) throw new Error(`The schema's foreign keys form a cycle through ${table}.`);
    visiting.add(table);
    for (const target of references.get(table) ?? []) visit(target);
    visiting.delete(table);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Every row of a table as plain values, sorted by their JSON text: the same content reads the same on either
 * database and in either physical order (PostgreSQL moves updated rows).
 */
export async function tableRows(q: Queryable, table: string): Promise<Record<string, unknown>[]> {
  const rows = await q.all<Record<string, unknown>>(`SELECT * FROM ${quoteIdentifier(table)}`);
  const keyed = rows.map((row) => ({ row, key: JSON.stringify(row) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map(({ row }) => row);
}

export { quoteIdentifier };
