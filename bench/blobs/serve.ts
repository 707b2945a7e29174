/**
 * One server of the blob-store benchmark, in its own process (its memory is read from /proc):
 * `serve.ts s3` (s3rver, an S3-compatible server on disk, with a bucket), `serve.ts hub fs` (the hub, blobs
 * in its data directory), `serve.ts hub s3 <endpoint>` (the hub, blobs in that server's bucket, downloads
 * proxied). Prints one JSON line, serves until SIGTERM.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { accountsService, createJsonLogger, type StartHubOptions, startHub } from "@modelhub/hub";
import S3rver from "s3rver";
import { serveUntilTerm } from "../repos/measure.js";

const [role, driver, endpoint] = process.argv.slice(2);
const BUCKET = "bench";
const KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

async function main(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), `modelhub-bench-blobs-${role}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  if (role === "s3") {
    const server = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await server.run();
    process.stdout.write(`${JSON.stringify({ endpoint: `http://localhost:${port}`, dir })}\n`);
    return async () => {
      await server.close();
      remove();
    };
  }
  const blobStore: StartHubOptions["blobStore"] =
    driver === "s3"
      ? {
          kind: "s3",
          bucket: BUCKET,
          prefix: "hub/",
          endpoint,
          region: "us-east-1",
          forcePathStyle: true,
          credentials: KEYS,
        }
      : { kind: "fs" };
  const hub = await startHub({
    dataDir: dir,
    providerSim: false,
    // The 20-model test catalogue: fewer demo repositories to store at start (s3rver is slow at small puts).
    catalogueDir: fileURLToPath(new URL("../../apps/hub/src/__fixtures__/catalogue", import.meta.url)),
    blobStore,
    logger: createJsonLogger({ write: (line) => process.stderr.write(`${line}\n`), level: "warn" }),
  });
  const accounts = accountsService(hub.store.accounts);
  await accounts.createUser({ name: "bench" });
  const { token } = await accounts.createToken("bench", { name: "bench", role: "write" });
  process.stdout.write(`${JSON.stringify({ url: hub.url, token, dataDir: dir })}\n`);
  return async () => {
    await hub.close();
    remove();
  };
}

serveUntilTerm(main);
