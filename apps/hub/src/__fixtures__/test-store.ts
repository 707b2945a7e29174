import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { openStore, type Store, type StoreOptions } from "../store/store.js";
import { type PostgresServer, startPostgres } from "./postgres-server.js";

/**
 * The database the hub's tests run on: SQLite in each test's data dir by default; with
 * HUB_TEST_DATABASE=postgres, the PostgreSQL server vitest's global setup started (postgres-global-setup.ts),
 * one database per data dir, copied from the migrated template. Every test that opens a store or starts a hub goes through here, so the whole
 * suite runs on either database unchanged.
 */
export async function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  if (process.env.HUB_TEST_DATABASE !== "postgres") return undefined;
  const base = process.env.HUB_TEST_POSTGRES_URL;
  if (!base) throw new Error("HUB_TEST_DATABASE=postgres but no server: run through vitest (global setup).");
  // The same data dir is the same database: a test that restarts a hub finds its data again.
  return migratedDatabaseUrl(base, `t_${createHash("sha256").update(dataDir).digest("hex").slice(0, 16)}`);
}

/**
 * The database every test database is copied from: migrated to the latest version once per run by the
 * global setup, so a test's store opens on a schema that is already there (a copy takes a few milliseconds,
 * running ~50 migrations on an empty schema about 270 ms). Migrating from zero stays tested where it is the
 * subject: ownPostgresUrl below hands out empty schemas (replicas, database copy, upgrades).
 */
export const MIGRATED_TEMPLATE = "hub_migrated";

/** PostgreSQL's error codes for "that database exists" (the second is a concurrent CREATE of the same name). */
const DATABASE_EXISTS = new Set(["42P04", "23505"]);

/** The databases this process used (made, or found made by a hub it started), dropped when its test file ends. */
const usedHere = new Set<string>();

/** `name` on the server at `base` (copied from the migrated template unless it exists), as a URL. */
async function migratedDatabaseUrl(base: string, name: string): Promise<string> {
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

/** A URL whose connections work in `schema` (created if missing), with `public` (citext) behind it. */
export async function schemaUrl(base: string, schema: string): Promise<string> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema},public`);
  return url.toString();
}

export async function openTestStore(options: StoreOptions): Promise<Store> {
  return openStore({ ...options, databaseUrl: options.databaseUrl ?? (await testDatabaseUrl(options.dataDir)) });
}

/**
 * A PostgreSQL database of its own for a test that needs one whatever HUB_TEST_DATABASE says: a new schema
 * on the run's shared server (PostgreSQL run), or on a server this test starts. stop() stops only the latter.
 */
export async function ownPostgresUrl(prefix: string): Promise<{ url: string; stop(): void }> {
  let server: PostgresServer | undefined;
  let base = process.env.HUB_TEST_POSTGRES_URL;
  if (!base) {
    server = await startPostgres();
    base = server.url;
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query("CREATE EXTENSION IF NOT EXISTS citext SCHEMA public");
  await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public");
    await client.end();
  }
  const url = await schemaUrl(base, `${prefix}_${randomBytes(4).toString("hex")}`);
  return { url, stop: () => server?.stop() };
}
