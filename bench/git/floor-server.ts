/**
 * The floor of bench:git, in its own process (so that its CPU can be read from /proc apart from the clients'):
 * `git http-backend` behind node:http, as git's documentation sets it up, over the bare repositories under
 * `<root>`, plus the least a Git LFS server does for those repositories: `POST
 * /{name}.git/info/lfs/objects/batch` (downloads only) answers, for each object stored in the bare
 * repository's own `lfs/objects/`, a URL on this server, and `GET /lfs/{name}.git/{oid}` streams that file
 * (fs.createReadStream piped to the socket, as lfs-test-server or a static file server sends it). git-lfs
 * cannot fetch from http-backend alone: without an LFS server the floor would have no LFS content to clone.
 * Prints one JSON line (`{"url": ...}`), serves until SIGTERM.
 */
import { spawn } from "node:child_process";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serveUntilTerm } from "../repos/measure.js";

const [root, home] = process.argv.slice(2);
if (!root || !home) throw new Error("usage: floor-server.ts <project root> <HOME for git>");

const OID = /^[0-9a-f]{64}$/;

function objectPath(repository: string, oid: string): string | undefined {
  if (!/^[A-Za-z0-9._-]+\.git$/.test(repository) || !OID.test(oid)) return undefined;
  const path = join(root!, repository, "lfs", "objects", oid.slice(0, 2), oid.slice(2, 4), oid);
  return existsSync(path) ? path : undefined;
}

async function lfsBatch(
  request: IncomingMessage,
  response: ServerResponse,
  repository: string,
  base: string,
) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString()) as {
    operation: string;
    objects: { oid: string; size: number }[];
  };
  const objects = body.objects.map(({ oid, size }) => {
    const path = body.operation === "download" ? objectPath(repository, oid) : undefined;
    return path
      ? { oid, size, actions: { download: { href: `${base}/lfs/${repository}/${oid}`, expires_in: 3600 } } }
      : { oid, size, error: { code: 404, message: "Object does not exist." } };
  });
  response.writeHead(200, { "Content-Type": "application/vnd.git-lfs+json" });
  response.end(JSON.stringify({ transfer: "basic", objects, hash_algo: "sha256" }));
}

function lfsObject(response: ServerResponse, repository: string, oid: string) {
  const path = objectPath(repository, oid);
  if (!path) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, {
    "Content-Type": "application/octet-stream",
    "Content-Length": statSync(path).size,
  });
  createReadStream(path, { highWaterMark: 1 << 20 }).pipe(response);
}

/** `git http-backend` as a CGI program: the request's body in, its headers and body out. */
function httpBackend(request: IncomingMessage, response: ServerResponse, url: URL) {
  const child = spawn("git", ["http-backend"], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: home,
      REQUEST_METHOD: request.method ?? "GET",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: request.headers["content-type"] ?? "",
      ...(request.headers["content-encoding"]
        ? { HTTP_CONTENT_ENCODING: request.headers["content-encoding"] }
        : {}),
      ...(request.headers["git-protocol"] ? { GIT_PROTOCOL: String(request.headers["git-protocol"]) } : {}),
      REMOTE_ADDR: "127.0.0.1",
    },
  });
  request.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on("data", (chunk: Buffer) => {
    if (headersDone) {
      if (!response.write(chunk)) child.stdout.pause();
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString().split("\r\n")) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === "status") status = Number(value.split(" ")[0]);
      else response.setHeader(name, value);
    }
    response.writeHead(status);
    response.write(head.subarray(end + 4));
  });
  response.on("drain", () => child.stdout.resume());
  child.stdout.on("end", () => response.end());
}

serveUntilTerm(async () => {
  let base = "";
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const batch = /^\/([^/]+\.git)\/info\/lfs\/objects\/batch$/.exec(url.pathname);
    const object = /^\/lfs\/([^/]+\.git)\/([0-9a-f]{64})$/.exec(url.pathname);
    if (batch && request.method === "POST") {
      lfsBatch(request, response, batch[1]!, base).catch(() => response.writeHead(500).end());
    } else if (object && request.method === "GET") lfsObject(response, object[1]!, object[2]!);
    else httpBackend(request, response, url);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.stdout.write(`${JSON.stringify({ url: base })}\n`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
});
