import { join } from "node:path";
import S3rver from "s3rver";
import type { StartHubOptions } from "../start-hub.js";
import type { S3BlobStoreOptions } from "../storage/s3-blob-store.js";
import { makeTempDir } from "./temp-dir.js";

/** s3rver's fixed keys: it checks every request's signature (SigV4 headers and presigned queries) with them. */
const S3RVER_KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
export const TEST_BUCKET = "hub-blobs";

export interface TestS3Server {
  /**
   * `http://localhost:<port>`: listening on 127.0.0.1, named by another host name than the hub's 127.0.0.1,
   * as a real object store is (huggingface_hub follows a redirect to the same host name with its token).
   */
  endpoint: string;
  /** Where s3rver keeps the objects (one file per object under `<bucket>/`). */
  directory: string;
  /** Driver options for `prefix` in the test bucket. */
  options(prefix?: string): Omit<S3BlobStoreOptions, "observe">;
  close(): Promise<void>;
}

/**
 * An S3-compatible server (s3rver: Node, objects on disk) on loopback, with an empty bucket, for the S3
 * driver's tests. In this process: it shares the event loop with the test, which is fine for correctness
 * (the benchmark runs it in a child process).
 */
export async function startTestS3Server(): Promise<TestS3Server> {
  const temp = makeTempDir();
  const directory = join(temp.dir, "s3");
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://localhost:${port}`;
  return {
    endpoint,
    directory,
    options: (prefix = "") => ({
      bucket: TEST_BUCKET,
      prefix,
      endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: S3RVER_KEYS,
      // s3rver removes a "directory" when its last object is deleted, racing with puts under it (ENOENT ->
      // 500 InternalError, seen when tests run side by side); S3 and MinIO have no such race. More retries.
      maxAttempts: 10,
    }),
    async close() {
      server.httpServer.closeAllConnections();
      await server.close();
      temp.remove();
    },
  };
}

/**
 * The blob store a real-client suite's hub runs on: the data directory by default; with
 * HUB_TEST_BLOB_STORE=s3 a fresh s3rver bucket, its downloads proxied or, with
 * HUB_TEST_BLOB_DOWNLOAD=redirect, redirected to presigned URLs. One switch runs the suites on either driver.
 */
export async function blobStoreUnderTest(): Promise<{
  options: Pick<StartHubOptions, "blobStore" | "blobDownload">;
  close(): Promise<void>;
}> {
  if (process.env.HUB_TEST_BLOB_STORE !== "s3") return { options: {}, close: async () => {} };
  const server = await startTestS3Server();
  return {
    options: {
      blobStore: { kind: "s3", ...server.options("suite/") },
      blobDownload: process.env.HUB_TEST_BLOB_DOWNLOAD === "redirect" ? "redirect" : "proxy",
    },
    close: () => server.close(),
  };
}
