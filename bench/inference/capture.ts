/**
 * What each bench client puts on the wire for one non-streamed chat: a plain TCP server on loopback reads
 * each request (head and body) and answers the bench server's completion, keep-alive. Prints every
 * client's request bytes and says where they differ from raw fetch's.
 * Usage: node --conditions=source --import tsx inference/capture.ts
 */
import { createServer, type Socket } from "node:net";
import { makeClients } from "./clients.js";

const COMPLETION = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "bench-model",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello!" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
});
const ANSWER =
  "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: keep-alive\r\n" +
  `content-length: ${Buffer.byteLength(COMPLETION)}\r\n\r\n${COMPLETION}`;

const requests: string[] = [];

function serve(socket: Socket): void {
  let pending = Buffer.alloc(0);
  socket.on("data", (data: Buffer) => {
    pending = Buffer.concat([pending, data]);
    for (;;) {
      const headEnd = pending.indexOf("\r\n\r\n");
      if (headEnd === -1) return;
      const head = pending.subarray(0, headEnd).toString("latin1");
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      const end = headEnd + 4 + length;
      if (pending.length < end) return;
      requests.push(pending.subarray(0, end).toString("latin1"));
      pending = pending.subarray(end);
      socket.write(ANSWER);
    }
  });
}

const server = createServer(serve);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
if (!address || typeof address !== "object") throw new Error("no server address");
const base = `http://127.0.0.1:${address.port}`;

const seen = new Map<string, string>();
for (const client of makeClients(base)) {
  requests.length = 0;
  await client.chat();
  seen.set(client.name, requests[0]!);
}
server.close();

const [, rawRequest] = [...seen][0]!;
const lines = (request: string) => request.split("\r\n");
for (const [name, request] of seen) {
  console.log(`\n=== ${name} (${Buffer.byteLength(request, "latin1")} bytes)`);
  console.log(request.replaceAll("\r\n", "\\r\\n\n"));
  if (request === rawRequest) {
    console.log("--- identical to raw fetch's request");
    continue;
  }
  const rawLines = new Set(lines(rawRequest));
  const ownLines = new Set(lines(request));
  const extra = [...ownLines].filter((line) => !rawLines.has(line));
  const missing = [...rawLines].filter((line) => !ownLines.has(line));
  console.log(
    `--- differs from raw fetch's: extra ${JSON.stringify(extra)} missing ${JSON.stringify(missing)}`,
  );
}
