/**
 * The bare pull-through floor of the mirror benchmark (bench/mirror/run.ts, issue 34): what any pull-through
 * written on Node must do for a cold file, and nothing more. No Hono, no hub, no database: a node:http server
 * that, on `GET <path>`, asks upstream for the same path with undici (the mirror's client), and for each
 * chunk of the answer updates a sha256, writes it to a file and sends it to the client, with back-pressure
 * from both. The last chunk is held back until the whole body's sha256 matches the one upstream declares
 * (X-Linked-Etag, else ETag), as the mirror withholds a file's last byte until it is verified; the file is
 * kept (renamed to its hash) only when it matches, and the client's answer is cut otherwise.
 * Measured beside the mirror with the same client, its CPU seconds and speed tell what part of the mirror's
 * gap to a direct download is Node's machinery (receive, hash, write, send) and what part is the mirror's.
 *   FLOOR_UPSTREAM   upstream's origin (the bench's counting proxy)
 *   FLOOR_DIR        where transfers are written and kept files stay
 *   FLOOR_TOKEN      a bearer token for upstream (optional)
 * Prints `{"url": ...}` on its first line; serves until SIGTERM. `DELETE /__floor/kept` removes kept files.
 */
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Agent, request } from "undici";

const upstream = process.env.FLOOR_UPSTREAM;
const dir = process.env.FLOOR_DIR;
if (!upstream || !dir) throw new Error("Set FLOOR_UPSTREAM (upstream's origin) and FLOOR_DIR (a directory).");
mkdirSync(dir, { recursive: true });
const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
const authorization = process.env.FLOOR_TOKEN ? { authorization: `Bearer ${process.env.FLOOR_TOKEN}` } : {};

/** The sha256 upstream declares for a file: the public hub's X-Linked-Etag (LFS), else its ETag. */
function declaredSha256(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const name of ["x-linked-etag", "etag"]) {
    const value = String(headers[name] ?? "")
      .replace(/^W\//, "")
      .replaceAll('"', "");
    if (/^[0-9a-f]{64}$/.test(value)) return value;
  }
  return undefined;
}

const server = createServer(async (incoming, outgoing) => {
  if (incoming.url === "/__floor/kept" && incoming.method === "DELETE") {
    for (const name of readdirSync(dir)) rmSync(join(dir, name), { force: true });
    outgoing.writeHead(204).end();
    return;
  }
  const controller = new AbortController();
  outgoing.on("close", () => controller.abort());
  try {
    const answer = await request(`${upstream}${incoming.url}`, {
      headers: authorization,
      dispatcher,
      signal: controller.signal,
    });
    const expected = declaredSha256(answer.headers);
    if (answer.statusCode !== 200 || !expected) {
      await answer.body.dump();
      outgoing.writeHead(502).end(`upstream answered ${answer.statusCode} without a declared sha256\n`);
      return;
    }
    outgoing.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": String(answer.headers["content-length"]),
    });
    const transfer = join(dir, `transfer-${randomUUID()}`);
    const file = createWriteStream(transfer);
    const hash = createHash("sha256");
    let held: Buffer | undefined;
    const body = answer.body;
    const resume = () => {
      if (!file.writableNeedDrain && !outgoing.writableNeedDrain) body.resume();
    };
    file.on("drain", resume);
    outgoing.on("drain", resume);
    body.on("data", (chunk: Buffer) => {
      hash.update(chunk);
      const fileRoom = file.write(chunk);
      const clientRoom = held ? outgoing.write(held) : true;
      held = chunk;
      if (!fileRoom || !clientRoom) body.pause();
    });
    body.on("error", () => {
      file.destroy();
      rmSync(transfer, { force: true });
      outgoing.destroy();
    });
    body.on("end", () => {
      file.end(() => {
        if (hash.digest("hex") !== expected) {
          unlinkSync(transfer);
          outgoing.destroy();
          return;
        }
        renameSync(transfer, join(dir, expected));
        outgoing.end(held);
      });
    });
  } catch (error) {
    if (!outgoing.headersSent) outgoing.writeHead(502).end(`${(error as Error).message}\n`);
    else outgoing.destroy();
  }
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  process.exit(0);
});
