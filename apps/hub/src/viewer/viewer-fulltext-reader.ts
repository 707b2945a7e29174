import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * Reads the viewer's full-text index files (SQLite, read-only) on a worker thread. better-sqlite3 is
 * synchronous: a broad query's count or ranking over a million rows takes hundreds of milliseconds, which on
 * the main thread would hold every other request of the hub for as long. Here the main thread only sends the
 * statement and awaits its rows; the ranking logic stays in viewer-fulltext.ts.
 *
 * One worker per reader, started on first use, keeping the process alive only while a query is under way. Queries
 * run one after another in it: a slow one delays other searches, never other requests.
 */
export interface IndexReader {
  /** The rows of one read-only statement over the index file at `path`. */
  all<T>(path: string, sql: string, params: readonly (string | number)[]): Promise<T[]>;
}

/** The worker: opens the file read-only for each statement (cheap next to a query) and answers its rows. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.betterSqlite3);
parentPort.on("message", ({ id, path, sql, params }) => {
  let db;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const rows = db.prepare(sql).all(...params);
    parentPort.postMessage({ id, rows });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  } finally {
    if (db && db.open) db.close();
  }
});
`;

interface Waiting {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/** A failure reading an index file (missing, corrupt): the caller may rebuild it. */
export class IndexReadError extends Error {}

export function createIndexReader(): IndexReader {
  let worker: Worker | undefined;
  const waiting = new Map<number, Waiting>();
  let nextId = 0;

  function started(): Worker {
    if (worker) return worker;
    const betterSqlite3 = createRequire(import.meta.url).resolve("better-sqlite3");
    const spawned = new Worker(WORKER_SOURCE, { eval: true, workerData: { betterSqlite3 } });
    spawned.unref();
    spawned.on("message", (message: { id: number; rows?: unknown[]; error?: string }) => {
      const pending = waiting.get(message.id);
      if (!pending) return;
      waiting.delete(message.id);
      // Idle, the worker does not keep the process alive; a query under way does (a script awaiting it).
      if (waiting.size === 0) spawned.unref();
      if (message.error !== undefined) pending.reject(new IndexReadError(message.error));
      else pending.resolve(message.rows ?? []);
    });
    // A worker that dies fails what it held; the next query starts a new one.
    const fail = (error: Error) => {
      if (worker === spawned) worker = undefined;
      for (const pending of waiting.values()) pending.reject(error);
      waiting.clear();
    };
    spawned.on("error", fail);
    spawned.on("exit", (code) => fail(new Error(`The full-text index reader exited (${code}).`)));
    worker = spawned;
    return spawned;
  }

  return {
    all<T>(path: string, sql: string, params: readonly (string | number)[]): Promise<T[]> {
      const target = started();
      const id = nextId++;
      return new Promise<T[]>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
        target.ref();
        target.postMessage({ id, path, sql, params });
      });
    },
  };
}
