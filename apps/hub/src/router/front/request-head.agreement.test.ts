import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRouterRequest } from "../node-router.js";
import { parseRequestHead, type RequestHead } from "./request-head.js";

/**
 * The front's parser against node:http's (llhttp) on mutated requests: whatever the front takes, node:http must
 * read the same way (method, target, headers, body length). Where the two could disagree on where a message ends,
 * a request could be smuggled past one of them.
 */

interface NodeReading {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
}

let server: Server;
let port: number;
let lastReading: NodeReading | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    let bodyBytes = 0;
    request.on("data", (chunk: Buffer) => {
      bodyBytes += chunk.byteLength;
    });
    request.on("end", () => {
      lastReading = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        bodyBytes,
      };
      response.end("ok");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** How node:http reads `bytes` sent alone on a connection, or undefined when it refuses them or waits for more. */
async function nodeReads(bytes: Buffer): Promise<NodeReading | undefined> {
  lastReading = undefined;
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(bytes);
  let answer = "";
  socket.setEncoding("latin1");
  // Node's answer is whole once its "ok" body is in, or it refused the request and closed.
  const answered = new Promise<void>((resolve) => {
    socket.on("data", (chunk: string) => {
      answer += chunk;
      if (answer.endsWith("\r\n\r\nok")) resolve();
    });
    socket.on("close", () => resolve());
  });
  await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 200))]);
  socket.destroy();
  return answer.startsWith("HTTP/1.1 200 ") ? lastReading : undefined;
}

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEEDS = [
  "POST /v1/chat/completions HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer hf_x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n",
  "GET /v1/models HTTP/1.1\r\nHost: hub\r\nAccept: */*\r\nConnection: keep-alive\r\n\r\n",
  "POST /router/together/v1/chat/completions?x=1 HTTP/1.1\r\nHost: hub:80\r\nContent-Length: 10\r\nX-Hf-Bill-To: acme\r\n\r\n",
];
/**
 * Run once with 20,000 cases for each of six other seeds (120,000 requests, 27,000 taken by the front) when the
 * parser was written: the one disagreement found (a tab after Content-Length's digits, which node:http refuses)
 * is fixed and kept in request-head.test.ts.
 */
const CASES = 3000;
/** Bytes that matter to HTTP framing, and a few that do not. */
const PIECES = [
  " ",
  "\t",
  "\r",
  "\n",
  "\r\n",
  ":",
  ",",
  "\0",
  "\x7f",
  "\x80",
  "\xff",
  "0",
  "a",
  "A",
  "-",
  "/",
  "%",
  '"',
];

function mutate(text: string, next: () => number): string {
  let out = text;
  const edits = 1 + Math.floor(next() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * out.length);
    const choice = next();
    if (choice < 0.45) {
      out = out.slice(0, at) + PIECES[Math.floor(next() * PIECES.length)] + out.slice(at);
    } else if (choice < 0.75) out = out.slice(0, at) + out.slice(at + 1);
    else if (choice < 0.9) {
      // A header line again (a duplicate), or another's.
      const lines = out.split("\r\n");
      const line = lines[1 + Math.floor(next() * Math.max(1, lines.length - 3))] ?? "";
      out = out.replace("\r\n", `\r\n${line}\r\n`);
    } else out = out.replace(/Content-Length: \d+/, `Content-Length: ${Math.floor(next() * 40)}`);
  }
  return out;
}

describe("the front's request-head parser", () => {
  it(`reads every request it takes as node:http does (${CASES} mutated requests)`, async () => {
    const next = random(20261127);
    let taken = 0;
    for (let i = 0; i < CASES; i++) {
      const text = mutate(SEEDS[i % SEEDS.length]!, next);
      const head = parseRequestHead(Buffer.from(text, "latin1"), 0, isRouterRequest);
      if (typeof head === "string") continue;
      taken++;
      const { bodyStart, contentLength } = head as RequestHead;
      const message = Buffer.concat([
        Buffer.from(text.slice(0, bodyStart), "latin1"),
        Buffer.alloc(contentLength, "x"),
      ]);
      const node = await nodeReads(message);
      const what = JSON.stringify(text);
      expect(node, what).toBeDefined();
      expect(node!.method, what).toBe(head.method);
      expect(node!.url, what).toBe(head.url);
      expect(node!.bodyBytes, what).toBe(contentLength);
      expect(node!.headers, what).toEqual({ ...head.headers });
    }
    // The mutations leave enough requests intact for the comparison to mean something.
    expect(taken).toBeGreaterThan(CASES / 10);
  }, 60_000);
});
