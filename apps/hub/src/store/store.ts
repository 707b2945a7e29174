import { join } from "node:path";
import { createOidcIdentitiesTable } from "../accounts/oidc-identities-table.js";
import { createOrgInvitesTable } from "../accounts/org-invites-table.js";
import { createSqlAccountsStore } from "../accounts/sql-accounts-store.js";
import { createAuditTable } from "../audit/audit-table.js";
import { createBucketsTable } from "../buckets/buckets-table.js";
import { createDemoCopiesTable } from "../catalogue/demo-copies-table.js";
import { createEngagementTable } from "../catalogue/engagement-table.js";
import { refreshLocalApps } from "../catalogue/local-apps.js";
import { createMappingsTable } from "../catalogue/mappings-table.js";
import { createModelsTable } from "../catalogue/models-table.js";
import { createDiscussionsTable } from "../discussions/discussions-table.js";
import { createGitCommitsTable } from "../git/git-commits-table.js";
import { createUploadPartsTable } from "../lfs-xet/upload-parts-table.js";
import { createXetGcTable } from "../lfs-xet/xet-gc-table.js";
import { createXetTable } from "../lfs-xet/xet-table.js";
import { createRateLimitsTable } from "../limits/rate-limits-table.js";
import { createStorageUsageTable } from "../limits/storage-usage-table.js";
import { createMirrorTable } from "../mirror/mirror-table.js";
import { createBlobReferences } from "../repos/blob-references.js";
import { createLfsFilesTable } from "../repos/lfs-files-table.js";
import { createReposListing } from "../repos/repos-listing.js";
import { createReposTable } from "../repos/repos-table.js";
import { createProviderPreferencesTable } from "../router/provider-preferences-table.js";
import { createUsageReports } from "../router/usage-reports.js";
import { createUsageTable } from "../router/usage-table.js";
import { createScanTable } from "../scanning/scan-table.js";
import { createSearchTable } from "../search/search-table.js";
import { createViewerTable } from "../viewer/viewer-table.js";
import { createWebhooksTable } from "../webhooks/webhooks-table.js";
import type { Database, Queryable, TransactionOptions } from "./database.js";
import { createMetaTable } from "./meta-table.js";
import { appliedVersion, MIGRATIONS, migrate } from "./migrations.js";
import { openPostgresDatabase } from "./postgres-database.js";
import { openSqliteDatabase } from "./sqlite-database.js";

export const DATABASE_FILE = "hub.sqlite";

export interface StoreOptions {
  /** Directory holding the SQLite database file; created if missing (unused with `databaseUrl`). */
  dataDir: string;
  /** `postgres://...` selects PostgreSQL (DATABASE_URL); unset keeps SQLite in `dataDir`. */
  databaseUrl?: string;
  /** Connections in the PostgreSQL pool (default 10). */
  databasePoolSize?: number;
  /** Days per-call usage rows are kept (daily totals are kept for ever); default 30. */
  usageRetentionDays?: number;
  now?: () => Date;
}

/** Every table, each querying through `q`: the database itself, or one transaction on it. */
/**
 * `contentsChanged(key)` is told of every write to a repository's content index (`repo_contents`): at once
 * outside a transaction, after the commit inside one (createStore).
 */
function bindTables(
  q: Queryable,
  now: () => Date,
  contentsChanged: (repoKey: number) => void,
  /** The database's change mark (Database.changeMark), given to tables that keep reads under it; not in a transaction. */
  changeMark?: () => string | undefined,
) {
  return {
    models: createModelsTable(q, now),
    mappings: createMappingsTable(q),
    repos: createReposTable(q, undefined, contentsChanged, changeMark),
    /** Dataset and space listings (`GET /api/datasets`, `/api/spaces`). */
    reposListing: createReposListing(q),
    /** What still needs each blob (garbage collection). */
    blobReferences: createBlobReferences(q),
    /** LFS objects of a repository's history, listed and permanently deleted (repos/lfs-files.ts). */
    lfsFiles: createLfsFilesTable(q, contentsChanged),
    /** Storage buckets, their files and uploads (buckets/buckets-table.ts). */
    buckets: createBucketsTable(q),
    /** Parts of multipart LFS uploads in flight. */
    uploadParts: createUploadPartsTable(q),
    /** Discussions and pull requests (see discussions-table.ts). */
    discussions: createDiscussionsTable(q),
    /** Xet storage: xorbs, chunks and file reconstructions. */
    xet: createXetTable(q, now),
    /** Xet garbage collection, and the upload steps that must not race it. */
    xetGc: createXetGcTable(q, now),
    /** Users, organizations, tokens, sessions, access requests (see accounts-store.ts). */
    accounts: createSqlAccountsStore(q, now),
    /** Organization invitations. */
    orgInvites: createOrgInvitesTable(q, now),
    /** Single sign-on identities linked to accounts. */
    oidcIdentities: createOidcIdentitiesTable(q, now),
    /** The mirror of an upstream hub: ref checks and declared LFS content (mirror/mirror-table.ts). */
    mirror: createMirrorTable(q),
    /** The content scanner's queue, reports and opt-ins (scanning/scan-table.ts). */
    scanning: createScanTable(q),
    /** The dataset viewer's conversion jobs and results (viewer/viewer-table.ts). */
    viewer: createViewerTable(q),
    /** Webhooks, the events queued for them and their deliveries (webhooks/webhooks-table.ts). */
    webhooks: createWebhooksTable(q),
    /** Commit objects pushed with git, as git wrote them (git/git-commits-table.ts). */
    gitCommits: createGitCommitsTable(q),
    /** Request counts per caller and window, shared by replicas (limits/rate-limiter.ts). */
    rateLimits: createRateLimitsTable(q),
    /** Storage each owner's repositories reference, for quotas (limits/storage-quotas.ts). */
    storageUsage: createStorageUsageTable(q),
    /** The audit log, written in the transactions of the actions it records (audit/audit-log.ts). */
    audit: createAuditTable(q),
    /** The full-text and id search index over repositories (search/search-table.ts). */
    search: createSearchTable(q),
    /** This hub's own likes and download counts, and a catalogue's source figures (catalogue/engagement-table.ts). */
    engagement: createEngagementTable(q, now),
    /** Which repositories are demo copies of catalogue models (catalogue/demo-copies-table.ts). */
    demoCopies: createDemoCopiesTable(q),
    meta: createMetaTable(q),
  };
}

export type StoreTables = ReturnType<typeof bindTables>;

/** The tables inside one transaction, and the lock that serializes work across processes and replicas. */
export interface StoreTransaction extends StoreTables {
  /** Holds the named lock until the transaction ends (see database.ts Transaction.lock). */
  lock(key: string): Promise<void>;
}

/** The hub's database, reached only through these tables. Open with openStore. */
export function createStore(db: Database, options: Omit<StoreOptions, "dataDir"> = {}) {
  const now = options.now ?? (() => new Date());
  const usage = createUsageTable(db, now, options.usageRetentionDays);
  const contentsListeners = new Set<(repoKey: number) => void>();
  const contentsChanged = (repoKey: number) => {
    for (const listener of contentsListeners) listener(repoKey);
  };
  const inTransaction = async <T>(
    work: (tx: StoreTransaction) => Promise<T>,
    transactionOptions?: TransactionOptions,
  ): Promise<T> => {
    // Told once the transaction has committed: a reader told earlier could keep what it is about to undo.
    const changed = new Set<number>();
    const result = await db.transaction(
      (tx) => work({ ...bindTables(tx, now, (key) => changed.add(key)), lock: (key) => tx.lock(key) }),
      transactionOptions,
    );
    for (const repoKey of changed) contentsChanged(repoKey);
    return result;
  };
  return {
    ...bindTables(db, now, contentsChanged, db.changeMark),
    /**
     * Calls `listener` with the key of each repository whose content index this process changed, once the
     * change is committed (repos/storage-sums.ts). The result stops it.
     */
    onRepoContentsChanged(listener: (repoKey: number) => void): () => void {
      contentsListeners.add(listener);
      return () => contentsListeners.delete(listener);
    },
    /** Router calls, recorded in batches (usage-table.ts). */
    usage,
    /** Usage per user and per organization. */
    usageReports: createUsageReports(db, () => usage.flush()),
    /** Each user's order of inference providers (cached briefly: provider-preferences-table.ts). */
    providerPreferences: createProviderPreferencesTable(db),
    /** The driver underneath, for what no table covers (readiness, the copy command, tests). */
    db,
    /** The schema version the database is at and the one this code knows (readiness: equal once migrated). */
    async schema(): Promise<{ applied: number; known: number }> {
      return { applied: await appliedVersion(db), known: MIGRATIONS.length };
    },
    /** Runs `work` in one transaction: all of its writes land, or none. Query only through `tx` inside. */
    transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      return inTransaction(work);
    },
    /**
     * Runs `work` in one transaction that takes the write lock at its start (SQLite: BEGIN IMMEDIATE): for
     * read-then-write work. On PostgreSQL, also call `tx.lock(key)` first with a key naming what must not
     * change underneath (a branch: see commit-engine.ts), so writers on other replicas wait.
     */
    writeTransaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      return inTransaction(work, { immediate: true });
    },
    async close(): Promise<void> {
      try {
        await usage.close();
      } finally {
        await db.close();
      }
    },
  };
}

export type Store = ReturnType<typeof createStore>;

/** Whether a DATABASE_URL names PostgreSQL (the only other database the hub speaks). */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

/**
 * Opens (creating and migrating as needed) the hub's database: PostgreSQL when `databaseUrl` names it,
 * else SQLite in `dataDir`. Several hubs may open one database at once: only one migrates at a time.
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const db = isPostgresUrl(options.databaseUrl)
    ? openPostgresDatabase({ url: options.databaseUrl, max: options.databasePoolSize })
    : openSqliteDatabase(join(options.dataDir, DATABASE_FILE));
  try {
    await migrate(db);
    await refreshLocalApps(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return createStore(db, options);
}
