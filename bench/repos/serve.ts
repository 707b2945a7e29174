/**
 * One server of the repository benchmark, in its own process (so its memory can be read from /proc):
 * `serve.ts hub` (the hub on a fresh data dir, with a user `bench` and a write token), `serve.ts pipe`
 * (the floor for downloads: node:http piping a file from disk), `serve.ts sink <dir>` (the floor for
 * uploads: node:http writing the body to a file, fsync, rename). Prints one JSON line, serves until SIGTERM.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { accountsService, createJsonLogger, startHub } from "@modelhub/hub";
import { serveUntilTerm } from "./measure.js";

const [role, dir] = process.argv.slice(2);

async function main(): Promise<() => Promise<void>> {
  if (role === "hub") {
    const dataDir = mkdtempSync(join(tmpdir(), "modelhub-bench-repos-"));
    const hub = await startHub({
      dataDir,
      providerSim: false,
      logger: createJsonLogger({ write: (line) => process.stderr.write(`${line}\n`), level: "warn" }),
    });
    const accounts = accountsService(hub.store.accounts);
    await accounts.createUser({ name: "bench" });
    const { token } = await accounts.createToken("bench", { name: "bench", role: "write" });
    process.stdout.write(`${JSON.stringify({ url: hub.url, token, dataDir })}\n`);
    return async () => {
      await hub.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  // The bare servers: GET /?path=<file> streams a file; PUT / writes the body under `dir`.
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    if (request.method === "GET") {
      const path = url.searchParams.get("path") ?? "";
      response.writeHead(200, { "Content-Length": statSync(path).size });
      createReadStream(path, { highWaterMark: 1 << 20 }).pipe(response);
      return;
    }
    const tmp = join(dir ?? tmpdir(), `upload-${process.hrtime.bigint()}`);
    pipeline(request, createWriteStream(tmp, { highWaterMark: 1 << 20 }))
      .then(async () => {
        const handle = await open(tmp, "r+");
        await handle.sync();
        await handle.close();
        await rename(tmp, `${tmp}.done`);
        rmSync(`${tmp}.done`);
        response.writeHead(200).end();
      })
      .catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`,
  );
  return () => new Promise((resolve) => server.close(() => resolve()));
}

serveUntilTerm(main);
