import { type RunningHub, type StartHubOptions, startHub } from "../start-hub.js";
import { testDatabaseUrl } from "./test-store.js";

/** startHub on the test database (test-store.ts): SQLite in `dataDir`, or PostgreSQL in the PostgreSQL run. */
export async function startTestHub(options: StartHubOptions): Promise<RunningHub> {
  return startHub({ ...options, databaseUrl: options.databaseUrl ?? (await testDatabaseUrl(options.dataDir)) });
}
