import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The one interface every store module queries through, with two drivers behind it: SQLite (better-sqlite3,
 * the embedded default: sqlite-database.ts) and PostgreSQL (node-postgres, `DATABASE_URL=postgres://...`:
 * postgres-database.ts). Queries are plain SQL with `?` placeholders, written once for both: the PostgreSQL
 * driver numbers the placeholders. Where the dialects differ (JSON functions, mostly), a store module asks
 * `q.dialect` and picks the fragment; see model-filters.ts.
 *
 * Rules for SQL that runs on both: `INSERT ... ON CONFLICT ... DO NOTHING / DO UPDATE` (not `INSERT OR
 * IGNORE`), `RETURNING id` for new keys (not lastInsertRowid), booleans as 0/1 integers, text timestamps
 * (ISO 8601), `coalesce` (not `ifnull`), `substr`, `lower`, `count(*)`; no pragmas, no SQLite functions.
 */
export type Dialect = "sqlite" | "postgres";

export interface Queryable {
  readonly dialect: Dialect;
  /** Every row the statement returns. */
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row the statement returns, if any. */
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `work` in a transaction (on a transaction: in a savepoint): all of its writes land, or none. */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

export interface TransactionOptions {
  /**
   * Take the write lock at the start (SQLite: BEGIN IMMEDIATE): for read-then-write work, so two writers
   * never interleave. On PostgreSQL, pair it with `tx.lock(key)` for what must serialize across replicas.
   */
  immediate?: boolean;
}

export interface Transaction extends Queryable {
  /**
   * Holds an exclusive lock named `key` until this transaction ends: two transactions (in any process)
   * locking the same key run one after the other. SQLite's write lock (immediate) already serializes every
   * writer; PostgreSQL takes a transaction-scoped advisory lock.
   */
  lock(key: string): Promise<void>;
}

export interface Database extends Queryable {
  /**
   * Runs `handler` for every `notify` on `channel`: from every process on this database (PostgreSQL's
   * LISTEN/NOTIFY), or from this process only (SQLite). Resolves once listening; the result stops it.
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** The connection pool's state now (PostgreSQL; SQLite is one connection in the process: undefined). */
  poolState?(): PoolState;
  /**
   * A mark that differs whenever the data may differ from when it was last taken: a read cached under one
   * mark is what the database holds as long as the mark is the same (SQLite: this connection's row changes
   * and other processes' commits, such as the admin CLI's). Undefined while a transaction is open on the
   * connection (its writes may still roll back) and on PostgreSQL (other replicas write without telling).
   */
  changeMark?(): string | undefined;
  /** Where the data lives, for logs (never holds a password). */
  readonly description: string;
  close(): Promise<void>;
}

export interface PoolState {
  /** Connections open. */
  total: number;
  /** Of those, not lent to a query or transaction. */
  idle: number;
  /** Queries and transactions waiting for a connection. */
  waiting: number;
}

export class NestedTransactionError extends Error {
  constructor() {
    super(
      "A transaction was started on the database while this async context already holds one: call " +
        "tx.transaction (or use the tables bound to tx), not the store's own, inside a transaction.",
    );
    this.name = "NestedTransactionError";
  }
}

/**
 * Which transaction the current async context runs in: lets a driver refuse `db.transaction` from inside a
 * transaction (it would wait for its own lock on SQLite) with a clear error instead of hanging.
 */
const activeTransaction = new AsyncLocalStorage<Transaction>();
/** Transactions whose work is running, in this process. */
let transactionsRunning = 0;

/** The transaction the current async context runs in, if any. */
export function currentTransaction(): Transaction | undefined {
  return activeTransaction.getStore();
}

/**
 * Runs a transaction's work with `tx` as its context's transaction. While no transaction runs, the storage
 * is disabled: an enabled AsyncLocalStorage installs promise hooks that every promise of the process pays
 * for (a quarter of the router's CPU per call went to them and the garbage they left), and the first
 * transaction (the catalogue seed at start-up) would otherwise leave them on for good.
 */
export async function runInTransaction<T>(
  tx: Transaction,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  transactionsRunning++;
  try {
    return await activeTransaction.run(tx, () => work(tx));
  } finally {
    if (--transactionsRunning === 0) activeTransaction.disable();
  }
}

/**
 * Whether `error` is a unique (or primary key) constraint violation, on either driver: what a write that
 * raced another process's write of the same name fails with once the check before it passed in both.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** Stable 64-bit key for a lock name (PostgreSQL advisory locks take integers). */
export function lockKey(name: string): bigint {
  // FNV-1a 64-bit: fast, deterministic across processes and versions (unlike a runtime's string hash).
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < name.length; i++) {
    hash ^= BigInt(name.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return BigInt.asIntN(64, hash);
}

/** `?, ?, ?` for a list of values (bound parameters; never values spliced into SQL). */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => "?").join(", ");
}
