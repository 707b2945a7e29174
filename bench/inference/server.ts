/**
 * A minimal OpenAI-compatible chat server for the benchmark (node:http, loopback, its own process so it
 * does not share the client's event loop). POST /v1/chat/completions answers a fixed completion, or an SSE
 * stream of `x-bench-chunks` chunks (default 100) when `stream: true`.
 */
import { createServer, type ServerResponse } from "node:http";
import { COMPLETION, MAPPING } from "./completion.js";

const chunk = (content: string, finish: string | null) =>
  `data: ${JSON.stringify({
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "bench-model",
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  })}\n\n`;
const TOKEN_EVENT = chunk("tok ", null);
const LAST_EVENT = `${chunk("", "stop")}data: [DONE]\n\n`;
const EVENTS_PER_WRITE = 16;

async function stream(res: ServerResponse, chunks: number): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const batch = TOKEN_EVENT.repeat(EVENTS_PER_WRITE);
  let sent = 0;
  while (sent < chunks) {
    const n = Math.min(EVENTS_PER_WRITE, chunks - sent);
    const ok = res.write(n === EVENTS_PER_WRITE ? batch : TOKEN_EVENT.repeat(n));
    sent += n;
    if (!ok) await new Promise((resolve) => res.once("drain", resolve));
    if (res.destroyed) return;
  }
  res.end(LAST_EVENT);
}

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on("data", (part: Buffer) => parts.push(part));
  req.on("end", () => {
    // The hub's model info with its provider mappings, for the routed chat variants (ab.ts): one lookup,
    // then the client's mapping cache answers.
    if (req.method === "GET" && req.url?.startsWith("/api/models/")) {
      res.writeHead(200, { "content-type": "application/json" }).end(MAPPING);
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as { stream?: boolean };
    if (body.stream) {
      void stream(res, Number(req.headers["x-bench-chunks"] ?? 100));
      return;
    }
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(COMPLETION),
    });
    res.end(COMPLETION);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") process.send?.({ port: address.port });
});
// Connections accepted so far: a client opening new ones instead of reusing its pool's shows here.
let connections = 0;
server.on("connection", () => connections++);
process.on("message", (message) => {
  if (message !== "cpu") return;
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuMicros: user + system, connections });
});
process.on("disconnect", () => server.close(() => process.exit(0)));
