import { ConflictError } from "../errors.js";
import type { Database, Queryable } from "./database.js";
import { appliedVersion } from "./migrations.js";
import {
  listTables,
  primaryKeyColumns,
  quoteIdentifier,
  tableColumns,
  tablesInDependencyOrder,
} from "./schema-tables.js";

/**
 * Copies every row of one hub database into another at the same schema version: how a hub moves from SQLite
 * to PostgreSQL (`npm run admin -w apps/hub -- db:copy --to postgres://...`). The target must hold no rows;
 * the copy is one transaction on it (all of it lands, or nothing), and afterwards each generated key
 * (PostgreSQL's sequences) continues after the largest copied one, so new rows get fresh ids.
 */

export interface CopiedTable {
  table: string;
  rows: number;
}

/** Rows per INSERT: well under PostgreSQL's 65,535 bound parameters for the widest table. */
const MAX_PARAMETERS_PER_INSERT = 30_000;

/**
 * The table a hub writes to when it opens a new database (the local apps' version: local-apps.ts): not a sign
 * of data in the target; its rows give way to the source's (whose keys, e.g. Xet's signing key, must move).
 */
const OPEN_WRITES = "meta";

export async function copyDatabase(source: Database, target: Database): Promise<CopiedTable[]> {
  const [from, to] = [await appliedVersion(source), await appliedVersion(target)];
  if (from !== to) {
    throw new ConflictError(
      `The source database is at schema version ${from} and the target at ${to}: open both with this ` +
        "version of the hub first (it migrates them).",
    );
  }
  const tables = await tablesInDependencyOrder(source);
  await checkSameTables(source, target, tables);
  for (const table of tables.filter((name) => name !== OPEN_WRITES)) {
    const present = await target.get<{ n: number }>(`SELECT count(*) AS n FROM ${quoteIdentifier(table)}`);
    if (present && present.n > 0) {
      throw new ConflictError(
        `The target database already holds data (${present.n} rows in ${table}): copy into a new, empty database.`,
      );
    }
  }
  return target.transaction(async (tx) => {
    const copied: CopiedTable[] = [];
    await tx.run(`DELETE FROM ${quoteIdentifier(OPEN_WRITES)}`);
    for (const table of tables) copied.push({ table, rows: await copyTable(source, tx, table) });
    if (tx.dialect === "postgres") await continueSequences(tx);
    return copied;
  });
}

async function checkSameTables(source: Queryable, target: Queryable, tables: string[]): Promise<void> {
  const targetTables = new Set(await listTables(target));
  const missing = tables.filter((table) => !targetTables.has(table));
  if (missing.length > 0) throw new ConflictError(`The target database has no table ${missing.join(", ")}.`);
  for (const table of tables) {
    const [mine, theirs] = [await tableColumns(source, table), await tableColumns(target, table)];
    const absent = mine.filter((column) => !theirs.includes(column));
    if (absent.length > 0) {
      throw new ConflictError(`The target's table ${table} has no column ${absent.join(", ")}.`);
    }
  }
}

async function copyTable(source: Queryable, target: Queryable, table: string): Promise<number> {
  const columns = await tableColumns(source, table);
  const key = await primaryKeyColumns(source, table);
  // Pages in key order, so that memory stays bounded whatever the table's size.
  const order = (key.length > 0 ? key : columns).map(quoteIdentifier).join(", ");
  const perInsert = Math.max(1, Math.floor(MAX_PARAMETERS_PER_INSERT / columns.length));
  const columnList = columns.map(quoteIdentifier).join(", ");
  const rowPlaceholders = `(${columns.map(() => "?").join(", ")})`;
  let copied = 0;
  for (;;) {
    const batch = await source.all<Record<string, unknown>>(
      `SELECT ${columnList} FROM ${quoteIdentifier(table)} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [perInsert, copied],
    );
    if (batch.length === 0) return copied;
    await target.run(
      `INSERT INTO ${quoteIdentifier(table)} (${columnList}) VALUES ${batch.map(() => rowPlaceholders).join(", ")}`,
      batch.flatMap((row) => columns.map((column) => row[column] ?? null)),
    );
    copied += batch.length;
  }
}

/** Each sequence behind a generated key restarts after the largest key copied (or at 1 when none was). */
async function continueSequences(tx: Queryable): Promise<void> {
  const keyed = await tx.all<{ table_name: string; column_name: string; sequence: string }>(
    "SELECT table_name, column_name, " +
      "pg_get_serial_sequence(quote_ident(table_schema) || '.' || quote_ident(table_name), column_name) AS sequence " +
      "FROM information_schema.columns WHERE table_schema = current_schema() " +
      "AND (column_default LIKE 'nextval(%' OR is_identity = 'YES')",
  );
  for (const { table_name, column_name, sequence } of keyed) {
    if (!sequence) continue;
    await tx.get(
      `SELECT setval(?, coalesce(max(${quoteIdentifier(column_name)}), 0) + 1, false) FROM ${quoteIdentifier(table_name)}`,
      [sequence],
    );
  }
}
