/**
 * The bare Node floor of the repository benchmark, in its own process (so that its CPU and memory can be
 * read from /proc): node:http and nothing else. `GET /?path=<file>` streams a file (fs.createReadStream in
 * 1 MiB reads), `HEAD /?path=<file>` answers its length; `PUT /` writes the body under `<dir>` while hashing
 * it (sha256), then fsync and rename: what an upload server cannot do less than. Prints one JSON line,
 * serves until SIGTERM. (The hub itself is started as `npm start` starts it: ../npm-start-hub.ts.)
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, rmSync, statSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { serveUntilTerm } from "./measure.js";

const [dir] = process.argv.slice(2);
const READ_CHUNK = 1 << 20;

async function main(): Promise<() => Promise<void>> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    if (request.method === "GET" || request.method === "HEAD") {
      const path = url.searchParams.get("path") ?? "";
      response.writeHead(200, { "Content-Length": statSync(path).size });
      if (request.method === "HEAD") response.end();
      else createReadStream(path, { highWaterMark: READ_CHUNK }).pipe(response);
      return;
    }
    const tmp = join(dir ?? tmpdir(), `upload-${process.hrtime.bigint()}`);
    const hash = createHash("sha256");
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    pipeline(request, hashing, createWriteStream(tmp, { highWaterMark: READ_CHUNK }))
      .then(async () => {
        const handle = await open(tmp, "r+");
        await handle.sync();
        await handle.close();
        await rename(tmp, `${tmp}.done`);
        rmSync(`${tmp}.done`);
        response.writeHead(200, { "Content-Type": "text/plain" }).end(hash.digest("hex"));
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
