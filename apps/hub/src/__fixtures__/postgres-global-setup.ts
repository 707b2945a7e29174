import pg from "pg";
import { type PostgresServer, startPostgres } from "./postgres-server.js";

/**
 * Vitest global setup of the hub's tests: with HUB_TEST_DATABASE=postgres, one PostgreSQL server for the
 * whole run (each test gets its own schema in it: test-store.ts). Without it, nothing starts.
 */
let server: PostgresServer | undefined;

export async function setup(): Promise<void> {
  if (process.env.HUB_TEST_DATABASE !== "postgres") return;
  server = await startPostgres();
  // Extensions are per database: installed once in `public`, which every test schema's search path ends with.
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  await client.query("CREATE EXTENSION IF NOT EXISTS citext SCHEMA public");
  await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public");
  await client.end();
  process.env.HUB_TEST_POSTGRES_URL = server.url;
}

export async function teardown(): Promise<void> {
  server?.stop();
}
