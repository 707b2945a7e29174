import { EventEmitter } from "node:events";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import {
  currentTransaction,
  type Database,
  NestedTransactionError,
  type Queryable,
  runInTransaction,
  type Transaction,
  type TransactionOptions,
} from "./database.js";

type Statement = BetterSqlite3.Statement<unknown[], unknown>;

/**
 * The embedded driver: one better-sqlite3 connection. better-sqlite3 is synchronous, so each query runs at
 * once and returns a settled promise. Transactions take an in-process async lock (one transaction at a time
 * on the one connection) and then BEGIN (IMMEDIATE when asked): a transaction body must only await the
 * database, never other I/O, since queries made outside it meanwhile would run on the same connection.
 */
export function openSqliteDatabase(file: string): Database & { readonly raw: BetterSqlite3.Database } {
  mkdirSync(dirname(file), { recursive: true });
  const raw = new BetterSqlite3(file);
  // First, so that every later step waits for a lock rather than failing: two hubs opening a new file at
  // once both switch it to WAL and migrate it (migrations.ts serializes the steps).
  raw.pragma("busy_timeout = 5000");
  // WAL lets the admin CLI write while the server reads.
  switchToWal(raw);
  // In WAL mode NORMAL keeps the database consistent after any crash and durable after a process crash; it
  // only skips the fsync per commit, which otherwise caps router calls (two writes each) at ~100/s.
  raw.pragma("synchronous = NORMAL");
  raw.pragma("foreign_keys = ON");

  // Every statement is prepared once per distinct SQL text (listing shapes vary, hence the cap).
  const statements = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = raw.prepare(sql);
      if (statements.size < 2000) statements.set(sql, statement);
    }
    return statement;
  };
  const bind = (params: readonly unknown[] | undefined): unknown[] => (params ? (params as unknown[]) : []);

  const queries = {
    dialect: "sqlite" as const,
    all: async <T>(sql: string, params?: readonly unknown[]) => prepare(sql).all(...bind(params)) as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) =>
      prepare(sql).get(...bind(params)) as T | undefined,
    run: async (sql: string, params?: readonly unknown[]) => prepare(sql).run(...bind(params)).changes,
    exec: async (sql: string) => void raw.exec(sql),
  };

  // The lock: a chain of promises, each transaction waiting for the one before it.
  let tail: Promise<void> = Promise.resolve();
  let savepoints = 0;

  const nested = async <T>(tx: Transaction, work: (tx: Transaction) => Promise<T>): Promise<T> => {
    const name = `sp${++savepoints}`;
    raw.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work(tx);
      raw.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      raw.exec(`ROLLBACK TO ${name}`);
      raw.exec(`RELEASE ${name}`);
      throw error;
    }
  };

  const transaction = async <T>(
    work: (tx: Transaction) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T> => {
    if (currentTransaction()) throw new NestedTransactionError();
    const previous = tail;
    let release!: () => void;
    tail = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      const tx: Transaction = {
        ...queries,
        transaction: (inner) => nested(tx, inner),
        // The write lock (BEGIN IMMEDIATE) already serializes every writer of the file.
        lock: async () => {},
      };
      raw.exec(options?.immediate ? "BEGIN IMMEDIATE" : "BEGIN");
      try {
        const result = await runInTransaction(tx, work);
        raw.exec("COMMIT");
        return result;
      } catch (error) {
        if (raw.inTransaction) raw.exec("ROLLBACK");
        throw error;
      }
    } finally {
      release();
    }
  };

  // Rows this connection changed (a rolled-back change still counts: the mark only moves on), and the file's
  // version, which moves when another connection (the admin CLI) commits: about 1 µs together.
  const totalChanges = raw.prepare("SELECT total_changes()").pluck();
  const dataVersion = raw.prepare("PRAGMA data_version").pluck();
  const changeMark = (): string | undefined =>
    raw.inTransaction ? undefined : `${totalChanges.get() as number}:${dataVersion.get() as number}`;

  // One process per SQLite file serves requests (the admin CLI writes, it does not serve): notifications stay
  // in this process.
  const channels = new EventEmitter();
  channels.setMaxListeners(0);

  return {
    ...queries,
    raw,
    listen: async (channel, handler) => {
      channels.on(channel, handler);
      return async () => void channels.off(channel, handler);
    },
    notify: async (channel, payload) => void channels.emit(channel, payload),
    description: `sqlite:${file}`,
    changeMark,
    transaction,
    close: async () => {
      if (raw.open) raw.close();
    },
  };
}

const WAL_SWITCH_WAIT_MS = 5000;

/**
 * Switching a file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once instead of calling
 * the busy handler while another connection (a second hub opening the same new file) holds one: so wait and
 * retry here, for as long as busy_timeout would have waited.
 */
function switchToWal(db: BetterSqlite3.Database): void {
  const deadline = Date.now() + WAL_SWITCH_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code?.startsWith("SQLITE_BUSY");
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

export type { Queryable };
