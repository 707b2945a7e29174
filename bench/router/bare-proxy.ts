/**
 * The floor the hub's router is compared with: a reverse proxy on node:http + undici that sends every request
 * to `{upstream}{path}` and streams the answer back, and does nothing else (no authentication, no model lookup,
 * no usage, no logs). Run as its own process: `bare-proxy.ts <upstream base URL>`; prints `{"url": ...}`.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { HOP_BY_HOP } from "./hop-by-hop.js";

const upstream = new URL(process.argv[2] ?? "");
const basePath = upstream.pathname.replace(/\/$/, "");
const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
const endToEnd = (headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

const server = createServer((incoming, outgoing) => {
  agent
    .stream(
      {
        origin: upstream.origin,
        path: basePath + incoming.url,
        method: incoming.method as "POST",
        headers: endToEnd(incoming.headers) as Record<string, string>,
        body: incoming.method === "GET" || incoming.method === "HEAD" ? null : incoming,
      },
      ({ statusCode, headers }) => outgoing.writeHead(statusCode, endToEnd(headers)),
    )
    .catch((error: Error) => {
      process.stderr.write(`bare proxy: ${incoming.url}: ${error.message}\n`); // why a call failed
      outgoing.headersSent ? outgoing.destroy() : outgoing.writeHead(502).end();
    });
});
// Idle connections kept as long as the hub keeps them (its KEEP_ALIVE_SECONDS default).
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`,
  );
});
process.once("SIGTERM", () => server.close(() => process.exit(0)).closeAllConnections());
