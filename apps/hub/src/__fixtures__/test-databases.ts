import pg from "pg";

// The PostgreSQL run's per-test databases; only `pg` here, so the run's setup file (postgres-file-cleanup.ts)
// adds nothing heavier to each test file.

/**
 * The database every test database is copied from: migrated to the latest version once per run by the
 * global setup, so a test's store opens on a schema that is already there (a copy takes a few milliseconds,
 * running ~50 migrations on an empty schema about 270 ms). Migrating from zero stays tested where it is the
 * subject: ownPostgresUrl (test-store.ts) hands out empty schemas (replicas, database copy, upgrades).
 */
export const MIGRATED_TEMPLATE = "hub_migrated";

/** PostgreSQL's error codes for "that database exists" (the second is a concurrent CREATE of the same name). */
const DATABASE_EXISTS = new Set(["42P04", "23505"]);

/** The databases this process used (made, or found made by a hub it started), dropped when its test file ends. */
const usedHere = new Set<string>();

/** `name` on the server at `base` (copied from the migrated template unless it exists), as a URL. */
export async function migratedDatabaseUrl(base: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${MIGRATED_TEMPLATE}`);
  } catch (error) {
    if (!DATABASE_EXISTS.has((error as { code?: string }).code ?? "")) throw error;
  } finally {
    await client.end();
  }
  usedHere.add(name);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Drops the databases this process used (each test file runs in a process of its own), so a run of the whole
 * suite does not keep hundreds of copies on disk. Runs after the file's own hooks, which stop its hubs;
 * FORCE ends connections a hub that failed to stop still holds.
 */
export async function dropTestDatabases(): Promise<void> {
  const base = process.env.HUB_TEST_POSTGRES_URL;
  if (!base || usedHere.size === 0) return;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    for (const name of usedHere) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    usedHere.clear();
  } finally {
    await client.end();
  }
}
