import pg from "pg";
import { migrate } from "../store/migrations.js";
import { openPostgresDatabase } from "../store/postgres-database.js";
import { type PostgresServer, startPostgres } from "./postgres-server.js";
import { MIGRATED_TEMPLATE } from "./test-databases.js";

/**
 * Vitest global setup of the hub's tests: with HUB_TEST_DATABASE=postgres, one PostgreSQL server for the
 * whole run, and in it the migrated template each test's database is copied from (test-store.ts). Without
 * it, nothing starts.
 */
let server: PostgresServer | undefined;

/** Extensions are per database: installed in `public`, which every search path ends with. */
async function installExtensions(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS citext SCHEMA public");
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public");
  } finally {
    await client.end();
  }
}

/** Creates the template database and runs every migration in it, once; then closes it to connections. */
async function createMigratedTemplate(base: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${MIGRATED_TEMPLATE}`);
    const url = new URL(base);
    url.pathname = `/${MIGRATED_TEMPLATE}`;
    await installExtensions(url.toString());
    const db = openPostgresDatabase({ url: url.toString(), max: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    // A copy needs the template free of connections: none may open one by mistake during the run.
    await admin.query(`ALTER DATABASE ${MIGRATED_TEMPLATE} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`);
  } finally {
    await admin.end();
  }
}

export async function setup(): Promise<void> {
  if (process.env.HUB_TEST_DATABASE !== "postgres") return;
  server = await startPostgres();
  // The run's own database keeps the schemas ownPostgresUrl hands out (tests that migrate from zero).
  await installExtensions(server.url);
  await createMigratedTemplate(server.url);
  process.env.HUB_TEST_POSTGRES_URL = server.url;
}

export async function teardown(): Promise<void> {
  server?.stop();
}
