import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createOrgInvitesTable } from "../accounts/org-invites-table.js";
import { createSqliteAccountsStore } from "../accounts/sqlite-accounts-store.js";
import { createBlobReferences } from "./blob-references.js";
import { createDiscussionsTable } from "./discussions-table.js";
import { createMappingsTable } from "./mappings-table.js";
import { MIGRATIONS, migrate } from "./migrations.js";
import { createModelsTable } from "./models-table.js";
import { createProviderPreferencesTable } from "./provider-preferences-table.js";
import { createReposTable } from "./repos-table.js";
import { createUsageReports } from "./usage-reports.js";
import { createUsageTable } from "./usage-table.js";
import { createXetGcTable } from "./xet-gc-table.js";
import { createXetTable } from "./xet-table.js";

export const DATABASE_FILE = "hub.sqlite";

export interface StoreOptions {
  /** Directory holding the database file; created if missing. */
  dataDir: string;
  /** Days per-call usage rows are kept (daily totals are kept for ever); default 30. */
  usageRetentionDays?: number;
  now?: () => Date;
}

/** The hub's embedded database: one SQLite file, migrated on open, reached only through these tables. */
export function openStore(options: StoreOptions) {
  mkdirSync(options.dataDir, { recursive: true });
  const db = new Database(join(options.dataDir, DATABASE_FILE));
  // First, so that every later step waits for a lock rather than failing: two hubs opening a new file at
  // once both switch it to WAL and migrate it (migrations.ts serializes the steps).
  db.pragma("busy_timeout = 5000");
  // WAL lets the admin CLI write while the server reads.
  switchToWal(db);
  // In WAL mode NORMAL keeps the database consistent after any crash and durable after a process crash; it
  // only skips the fsync per commit, which otherwise caps router calls (two writes each) at ~100/s.
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  migrate(db);
  const now = options.now ?? (() => new Date());
  const usage = createUsageTable(db, now, options.usageRetentionDays);
  const getMeta = db.prepare<[string], { value: string }>("SELECT value FROM meta WHERE key = ?");
  const setMeta = db.prepare<[string, string]>(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  return {
    models: createModelsTable(db, now),
    mappings: createMappingsTable(db),
    repos: createReposTable(db),
    /** What still needs each blob (garbage collection): asynchronous. */
    blobReferences: createBlobReferences(db),
    /** Discussions and pull requests: asynchronous (see discussions-table.ts). */
    discussions: createDiscussionsTable(db),
    /** Xet storage: xorbs, chunks and file reconstructions. */
    xet: createXetTable(db, now),
    /** Xet garbage collection, and the upload steps that must not race it: asynchronous. */
    xetGc: createXetGcTable(db, now),
    /** Users, organizations, tokens, sessions, access requests: asynchronous (see accounts-store.ts). */
    accounts: createSqliteAccountsStore(db, now),
    /** Organization invitations (asynchronous). */
    orgInvites: createOrgInvitesTable(db, now),
    usage,
    /** Usage per user and per organization (asynchronous). */
    usageReports: createUsageReports(db, () => usage.flush()),
    /** Each user's order of inference providers: asynchronous. */
    providerPreferences: createProviderPreferencesTable(db),
    meta: {
      get: (key: string): string | undefined => getMeta.get(key)?.value,
      set: (key: string, value: string): void => void setMeta.run(key, value),
    },
    /** The schema version the database is at and the one this code knows (readiness: equal once migrated). */
    schema(): { applied: number; known: number } {
      return { applied: db.pragma("user_version", { simple: true }) as number, known: MIGRATIONS.length };
    },
    /** Runs `work` in one transaction: all of its writes land, or none. */
    transaction<T>(work: () => T): T {
      return db.transaction(work)();
    },
    /**
     * Runs `work` in one transaction that takes the write lock at its start (BEGIN IMMEDIATE): for
     * read-then-write work such as a commit, so two writers (even in two processes) never interleave.
     */
    writeTransaction<T>(work: () => T): T {
      return db.transaction(work).immediate();
    },
    close(): void {
      if (!db.open) return;
      usage.flush();
      db.close();
    },
  };
}

export type Store = ReturnType<typeof openStore>;

const WAL_SWITCH_WAIT_MS = 5000;

/**
 * Switching a file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once instead of calling
 * the busy handler while another connection (a second hub opening the same new file) holds one: so wait and
 * retry here, for as long as busy_timeout would have waited.
 */
function switchToWal(db: Database.Database): void {
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
