import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { openStore, type Store, type StoreOptions } from "../store/store.js";
import { type PostgresServer, startPostgres } from "./postgres-server.js";
import { migratedDatabaseUrl } from "./test-databases.js";

/**
 * The database the hub's tests run on: SQLite in each test's data dir by default; with
 * HUB_TEST_DATABASE=postgres, the PostgreSQL server vitest's global setup started (postgres-global-setup.ts),
 * one database per data dir, copied from the migrated template (test-databases.ts). Every test that opens a
 * store or starts a hub goes through here, so the whole suite runs on either database unchanged.
 */
export async function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  if (process.env.HUB_TEST_DATABASE !== "postgres") return undefined;
  const base = process.env.HUB_TEST_POSTGRES_URL;
  if (!base) throw new Error("HUB_TEST_DATABASE=postgres but no server: run through vitest (global setup).");
  // The same data dir is the same database: a test that restarts a hub finds its data again.
  return migratedDatabaseUrl(base, `t_${createHash("sha256").update(dataDir).digest("hex").slice(0, 16)}`);
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
