import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type RunningHub, type StartHubOptions, startHub } from "../start-hub.js";
import { blobStoreUnderTest } from "./s3-server.js";
import { FIXTURE_CATALOGUE_DIR } from "./seeded-app.js";
import { makeTempDir } from "./temp-dir.js";
import { testDatabaseUrl } from "./test-store.js";

/** startHub on the test database (test-store.ts): SQLite in `dataDir`, or PostgreSQL in the PostgreSQL run. */
export async function startTestHub(options: StartHubOptions): Promise<RunningHub> {
  return startHub({
    ...options,
    databaseUrl: options.databaseUrl ?? (await testDatabaseUrl(options.dataDir)),
    // No background scans unless a test asks for them: they would write while tests compare database states.
    scanning: options.scanning ?? { workers: false },
    // Nor background conversions: tests drain the viewer's queue when they want one.
    viewer: options.viewer ?? { workers: false },
    // Nor webhook deliveries: the queue stays as the test left it unless it asks for workers.
    webhooks: options.webhooks ?? { workers: false },
  });
}

export interface TestHubOptions extends Partial<StartHubOptions> {
  /** Put blobs on the store under test (a local S3 server when HUB_TEST_BLOB_STORE=s3), not only on disk. */
  blobStoreUnderTest?: boolean;
}

/** The hub of one test file, with the file's temp directory. Read it in tests and hooks, once started. */
export interface TestHub extends RunningHub {
  /** The file's temp directory (removed after the file); the hub's data is in `dataDir` below it. */
  readonly dir: string;
  readonly dataDir: string;
  /** The blob store options the hub runs on (empty: the file system under `dataDir`). */
  readonly blobOptions: Pick<StartHubOptions, "blobStore" | "blobDownload">;
}

/**
 * One hub for a test file: started in beforeAll (the fixture catalogue, no provider simulator, a fresh temp
 * directory, unless `options` say otherwise) and stopped in afterAll, the directory removed. Hooks the file
 * registers after this call run after the hub starts and, on the way out, before it stops.
 */
export function useTestHub(options: TestHubOptions = {}): TestHub {
  const { blobStoreUnderTest: onStoreUnderTest = false, ...hubOptions } = options;
  let started: {
    hub: RunningHub;
    temp: ReturnType<typeof makeTempDir>;
    dataDir: string;
    blobs: { close(): Promise<void> };
  };
  let blobOptions: TestHub["blobOptions"] = {};
  beforeAll(async () => {
    const temp = makeTempDir();
    const blobs = onStoreUnderTest ? await blobStoreUnderTest() : { options: {}, close: async () => {} };
    blobOptions = blobs.options;
    const dataDir = hubOptions.dataDir ?? join(temp.dir, "data");
    const hub = await startTestHub({
      providerSim: false,
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      ...blobs.options,
      ...hubOptions,
      dataDir,
    });
    started = { hub, temp, dataDir, blobs };
  }, 30_000);
  afterAll(async () => {
    if (!started) return;
    await started.hub.close();
    await started.blobs.close();
    started.temp.remove();
  });
  const running = () => {
    if (!started) throw new Error("The test hub starts in beforeAll: use it inside a test or a hook.");
    return started;
  };
  return {
    get url() {
      return running().hub.url;
    },
    get publicUrl() {
      return running().hub.publicUrl;
    },
    get spacesUrl() {
      return running().hub.spacesUrl;
    },
    get store() {
      return running().hub.store;
    },
    get providerSimUrl() {
      return running().hub.providerSimUrl;
    },
    get routing() {
      return running().hub.routing;
    },
    get scanning() {
      return running().hub.scanning;
    },
    get viewer() {
      return running().hub.viewer;
    },
    get webhooks() {
      return running().hub.webhooks;
    },
    close: () => running().hub.close(),
    get dir() {
      return running().temp.dir;
    },
    get dataDir() {
      return running().dataDir;
    },
    get blobOptions() {
      return blobOptions;
    },
  };
}
