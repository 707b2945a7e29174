import pg from "pg";
import {
  currentTransaction,
  type Database,
  lockKey,
  NestedTransactionError,
  type Queryable,
  runInTransaction,
  type Transaction,
} from "./database.js";

/** Rows counted and summed come back as int8 and numeric: numbers here, as on SQLite (safe below 2^53). */
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** `?` placeholders (outside quoted text) numbered as PostgreSQL wants them: `$1`, `$2`, ... Cached per text. */
const numbered = new Map<string, string>();
export function numberPlaceholders(sql: string): string {
  let text = numbered.get(sql);
  if (text !== undefined) return text;
  let out = "";
  let n = 0;
  let quote: string | undefined;
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = undefined;
      out += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      out += char;
    } else if (char === "?") {
      out += `$${++n}`;
    } else {
      out += char;
    }
  }
  text = out;
  if (numbered.size < 5000) numbered.set(sql, text);
  return text;
}

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database?...` */
  url: string;
  /** Connections in the pool (default 10). */
  max?: number;
}

type Client = pg.Pool | pg.PoolClient;

function queries(client: Client) {
  return {
    dialect: "postgres" as const,
    all: async <T>(sql: string, params?: readonly unknown[]) =>
      (await client.query(numberPlaceholders(sql), params as unknown[])).rows as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) =>
      (await client.query(numberPlaceholders(sql), params as unknown[])).rows[0] as T | undefined,
    run: async (sql: string, params?: readonly unknown[]) =>
      (await client.query(numberPlaceholders(sql), params as unknown[])).rowCount ?? 0,
    // No parameters: the simple query protocol, which runs several statements (migrations).
    exec: async (sql: string) => void (await client.query(sql)),
  };
}

/**
 * The PostgreSQL driver: a pool of connections (node-postgres). A transaction holds one pooled connection
 * from BEGIN to COMMIT; `tx.lock(key)` takes a transaction-scoped advisory lock, which is how two replicas
 * serialize what must not interleave (a branch head's update, migrations). The pool's own queries run on
 * whichever connection is free.
 */
export function openPostgresDatabase(options: PostgresOptions): Database & { readonly pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: options.url, max: options.max ?? 10, types: TYPES });
  // An idle connection the server drops (a restart, a timeout) must not crash the process: the pool
  // replaces it on next use.
  pool.on("error", () => {});
  let savepoints = 0;

  const transactionOn = (client: pg.PoolClient): Transaction => {
    const tx: Transaction = {
      ...queries(client),
      lock: async (key: string) => {
        await client.query("SELECT pg_advisory_xact_lock($1)", [lockKey(key).toString()]);
      },
      transaction: async (work) => {
        const name = `sp${++savepoints}`;
        await client.query(`SAVEPOINT ${name}`);
        try {
          const result = await work(tx);
          await client.query(`RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
          throw error;
        }
      },
    };
    return tx;
  };

  const listeners = new Map<string, Set<(payload: string) => void>>();
  let listener: Promise<pg.Client> | undefined;
  const listenerClient = () => {
    listener ??= (async () => {
      const client = new pg.Client({ connectionString: options.url });
      client.on("notification", (message) => {
        for (const handler of listeners.get(message.channel) ?? []) handler(message.payload ?? "");
      });
      client.on("error", () => {});
      await client.connect();
      return client;
    })();
    return listener;
  };
  const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

  return {
    ...queries(pool),
    pool,
    description: describe(options.url),
    poolState: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async transaction(work) {
      if (currentTransaction()) throw new NestedTransactionError();
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query("BEGIN");
        const tx = transactionOn(client);
        try {
          const result = await runInTransaction(tx, work);
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {
            broken = true;
          });
          throw error;
        }
      } finally {
        client.release(broken);
      }
    },
    async listen(channel, handler) {
      const client = await listenerClient();
      let handlers = listeners.get(channel);
      if (!handlers) {
        handlers = new Set();
        listeners.set(channel, handlers);
        await client.query(`LISTEN ${quoteIdent(channel)}`);
      }
      handlers.add(handler);
      return async () => {
        handlers.delete(handler);
      };
    },
    async notify(channel, payload) {
      await pool.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      const client = listener ? await listener.catch(() => undefined) : undefined;
      await client?.end().catch(() => {});
      await pool.end();
    },
  };
}

/** The URL without its password, for logs. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "postgres";
  }
}

export type PostgresDatabase = ReturnType<typeof openPostgresDatabase>;
export type { Queryable };
