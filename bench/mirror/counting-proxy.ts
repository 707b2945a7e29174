/**
 * The "network" between the mirror hub and its upstream in the mirror benchmark (bench/mirror/run.ts): a
 * node:http pass-through in its own process that counts every request and the bytes of every answer, so
 * that "one upstream transfer" and "bytes fetched upstream" are read where they cross, not inferred.
 * It starts before the upstream hub (whose PUBLIC_URL, and so the Xet CAS URL it hands out, is this
 * proxy), so its target is set afterwards:
 *   PUT  /__proxy/target?url=<upstream>   where to forward
 *   GET  /__proxy/stats                   {requests: [{method, path, status, bytes}], bytes}
 *   POST /__proxy/reset                   forget what was counted
 * Prints `{"url": ...}` on its first line; serves until SIGTERM.
 */
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

interface Counted {
  method: string;
  path: string;
  status: number;
  bytes: number;
}

let target: URL | undefined;
let counted: Counted[] = [];
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer((incoming, outgoing) => {
  const url = new URL(incoming.url ?? "/", "http://proxy");
  if (url.pathname.startsWith("/__proxy/")) {
    if (url.pathname === "/__proxy/target") target = new URL(url.searchParams.get("url") ?? "");
    if (url.pathname === "/__proxy/reset") counted = [];
    const bytes = counted.reduce((sum, entry) => sum + entry.bytes, 0);
    outgoing.writeHead(200, { "content-type": "application/json" });
    outgoing.end(JSON.stringify(url.pathname === "/__proxy/stats" ? { requests: counted, bytes } : {}));
    return;
  }
  if (!target) {
    outgoing.writeHead(503).end("the proxy has no target yet");
    return;
  }
  const entry: Counted = { method: incoming.method ?? "GET", path: url.pathname, status: 0, bytes: 0 };
  counted.push(entry);
  const headers = { ...incoming.headers, host: target.host };
  const forward = request(
    new URL(`${url.pathname}${url.search}`, target),
    { method: incoming.method, headers, agent },
    (answer) => {
      entry.status = answer.statusCode ?? 502;
      outgoing.writeHead(entry.status, answer.headers);
      answer.on("data", (chunk: Buffer) => {
        entry.bytes += chunk.length;
      });
      answer.pipe(outgoing);
    },
  );
  forward.on("error", () => {
    entry.status = 502;
    if (!outgoing.headersSent) outgoing.writeHead(502);
    outgoing.destroy();
  });
  // A client that goes away mid-answer ends the upstream request too, as a network would.
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) forward.destroy();
  });
  incoming.pipe(forward);
});

server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`,
  );
});
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
