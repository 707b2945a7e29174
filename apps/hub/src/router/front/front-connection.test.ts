import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readAnswers } from "./__fixtures__/raw-answers.js";
import { installRouterFront, type RouterFront } from "./front-connection.js";
import type { FrontRequest, FrontResponse } from "./front-exchange.js";

/**
 * The front on a real node:http server on loopback, with raw sockets as callers: `/v1/...` is answered by the
 * front (an echo of the call), anything else by node:http's request listener ("node").
 */

const MAX_BODY = 1024;
let server: Server | undefined;
let front: RouterFront;
/** What the front's handler was given, call by call. */
let handled: FrontRequest[] = [];
/** Calls the test answers itself (the handler leaves them pending). */
let held: FrontResponse[] = [];

async function startServer(): Promise<string> {
  handled = [];
  held = [];
  server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/plain" }).end(`node ${request.method} ${request.url}`);
  });
  front = installRouterFront(server, {
    accepts: (_method, target) => target.startsWith("/v1/"),
    maxBodyBytes: MAX_BODY,
    handle(request, response) {
      handled.push(request);
      if (request.url.startsWith("/v1/hold")) {
        held.push(response);
        return;
      }
      if (request.url.startsWith("/v1/large")) {
        writeLarge(response);
        return;
      }
      if (request.url.startsWith("/v1/stream")) {
        response.writeHead(200, ["content-type", "text/event-stream"]);
        response.write("data: 1\n\n");
        response.end("data: 2\n\n");
        return;
      }
      request.readBody(MAX_BODY).then(
        (body) => response.end(`front ${request.method} ${request.url} ${body.toString()}`),
        (error: Error) => {
          response.writeHead(413, ["connection", "close"]);
          response.end(error.message);
        },
      );
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return String((server.address() as AddressInfo).port);
}

const LARGE_BYTES = 8 * 1024 * 1024;
/** Writes had to wait for "drain" while writing a large answer. */
let drains = 0;

/** An 8 MiB answer written 64 KiB at a time, each write after the last one's "drain" when it filled the socket. */
function writeLarge(response: FrontResponse): void {
  drains = 0;
  const piece = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  response.writeHead(200, ["content-length", String(LARGE_BYTES)]);
  const writeOn = () => {
    while (sent < LARGE_BYTES) {
      sent += piece.byteLength;
      if (sent >= LARGE_BYTES) {
        response.end(piece);
        return;
      }
      if (!response.write(piece)) {
        drains++;
        response.on("drain", function resume() {
          response.off("drain", resume);
          writeOn();
        });
        return;
      }
    }
  };
  writeOn();
}

afterEach(async () => {
  if (!server) return;
  front.closeAllConnections();
  server.closeAllConnections();
  await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/** A raw connection: writes, and collects what comes back until it closes. */
async function open(
  port: string,
): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect(Number(port), "127.0.0.1");
  await once(socket, "connect");
  let text = "";
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    text += chunk;
  });
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  return { socket, received: () => text, closed };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** The bodies of the whole answers in `text`, in order. */
const bodiesOf = (text: string) => readAnswers(text).map((answer) => answer.body);

const call = (path: string, body = "", extra = "") =>
  `POST ${path} HTTP/1.1\r\nHost: hub\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;

describe("the router front", () => {
  it("answers router calls itself on a kept-alive connection, then hands it to node:http for another path", async () => {
    const port = await startServer();
    const caller = await open(port);
    caller.socket.write(call("/v1/chat", "{}"));
    await until(() => caller.received().includes("front POST /v1/chat {}"), "the first answer");
    caller.socket.write(call("/v1/chat", "[1]"));
    await until(() => bodiesOf(caller.received()).length === 2, "the second answer");
    caller.socket.write("GET /api/models HTTP/1.1\r\nHost: hub\r\n\r\n");
    await until(() => bodiesOf(caller.received()).length === 3, "node's answer");
    // Once handed over, the connection stays with node:http, router paths included.
    caller.socket.write(call("/v1/chat", "{}"));
    await until(() => bodiesOf(caller.received()).length === 4, "node's second answer");
    expect(bodiesOf(caller.received())).toEqual([
      "front POST /v1/chat {}",
      "front POST /v1/chat [1]",
      "node GET /api/models",
      "node POST /v1/chat",
    ]);
    const firstHead = caller.received().slice(0, caller.received().indexOf("\r\n\r\n"));
    expect(firstHead).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(firstHead).toMatch(/\r\ndate: .+ GMT\r\n/);
    expect(firstHead).toContain("\r\nconnection: keep-alive\r\nkeep-alive: timeout=5\r\n");
    expect(firstHead).toContain("\r\ncontent-length: 22");
    caller.socket.destroy();
  });

  it("answers pipelined calls in order, and hands over at the request where another path begins", async () => {
    const port = await startServer();
    const caller = await open(port);
    caller.socket.write(
      [
        call("/v1/hold", "a"),
        call("/v1/two", "b"),
        "GET /other HTTP/1.1\r\nHost: hub\r\n\r\n",
        call("/v1/x"),
      ].join(""),
    );
    await until(() => held.length === 1, "the first call");
    // Nothing of the later calls is answered while the first one is.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(handled.map((request) => request.url)).toEqual(["/v1/hold"]);
    held[0]!.end("first");
    await until(() => bodiesOf(caller.received()).length === 4, "four answers");
    expect(bodiesOf(caller.received())).toEqual([
      "first",
      "front POST /v1/two b",
      "node GET /other",
      "node POST /v1/x",
    ]);
    caller.socket.destroy();
  });

  it("leaves smuggling attempts to node:http, which refuses them, and the front never sees them", async () => {
    const port = await startServer();
    for (const attempt of [
      `POST /v1/chat HTTP/1.1\r\nHost: hub\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /v1/smuggled HTTP/1.1\r\nHost: hub\r\n\r\n`,
      `POST /v1/chat HTTP/1.1\r\nHost: hub\r\nContent-Length: 0\r\nContent-Length: 44\r\n\r\nGET /v1/smuggled HTTP/1.1\r\nHost: hub\r\n\r\n`,
      `POST /v1/chat HTTP/1.1\r\nHost: hub\r\nContent-Length : 44\r\n\r\nGET /v1/smuggled HTTP/1.1\r\nHost: hub\r\n\r\n`,
    ]) {
      const caller = await open(port);
      caller.socket.write(attempt);
      await caller.closed;
      expect(caller.received(), attempt).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(caller.received()).not.toContain("smuggled");
    }
    expect(handled).toEqual([]);
  });

  it("hands over a head that arrives in pieces with the bytes read, and reads a body that does itself", async () => {
    const port = await startServer();
    const split = await open(port);
    split.socket.write("POST /v1/chat HTTP/1.1\r\nHo");
    await new Promise((resolve) => setTimeout(resolve, 20));
    split.socket.write("st: hub\r\nContent-Length: 2\r\n\r\n{}");
    await until(() => split.received().includes("node POST /v1/chat"), "node's answer");
    const slowBody = await open(port);
    slowBody.socket.write("POST /v1/chat HTTP/1.1\r\nHost: hub\r\nContent-Length: 6\r\n\r\nab");
    await new Promise((resolve) => setTimeout(resolve, 20));
    slowBody.socket.write("cd");
    await new Promise((resolve) => setTimeout(resolve, 20));
    slowBody.socket.write("ef");
    await until(() => slowBody.received().includes("front POST /v1/chat abcdef"), "the front's answer");
    split.socket.destroy();
    slowBody.socket.destroy();
  });

  it("frames a streamed answer in chunks, and closes after an answer given before the body was read", async () => {
    const port = await startServer();
    const caller = await open(port);
    caller.socket.write("GET /v1/stream HTTP/1.1\r\nHost: hub\r\n\r\n");
    await until(() => caller.received().endsWith("0\r\n\r\n"), "the streamed answer");
    expect(caller.received()).toContain("\r\ntransfer-encoding: chunked\r\n");
    expect(bodiesOf(caller.received())).toEqual(["data: 1\n\ndata: 2\n\n"]);
    // A body over the limit: refused at once, not read, and the connection closes behind the answer.
    const tooLong = await open(port);
    tooLong.socket.write(`POST /v1/big HTTP/1.1\r\nHost: hub\r\nContent-Length: ${MAX_BODY + 1}\r\n\r\nabc`);
    await tooLong.closed;
    expect(tooLong.received()).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(tooLong.received()).toContain("\r\nconnection: close\r\n");
    expect(tooLong.received()).toContain(`larger than the limit of ${MAX_BODY} bytes`);
    caller.socket.destroy();
  });

  it("waits for a slow caller: writes that fill the socket go on after its drain", async () => {
    const port = await startServer();
    const caller = await open(port);
    caller.socket.pause();
    caller.socket.write("GET /v1/large HTTP/1.1\r\nHost: hub\r\n\r\n");
    await new Promise((resolve) => setTimeout(resolve, 100));
    caller.socket.resume();
    await until(() => caller.received().length >= LARGE_BYTES, "the whole answer");
    const text = caller.received();
    expect(text.length - text.indexOf("\r\n\r\n") - 4).toBe(LARGE_BYTES);
    expect(drains).toBeGreaterThan(0);
    caller.socket.destroy();
  });

  it("tells a call its caller left, and rejects a body that never came", async () => {
    const port = await startServer();
    const caller = await open(port);
    caller.socket.write(call("/v1/hold", "x"));
    await until(() => held.length === 1, "the call");
    const response = held[0]!;
    const closed = once(response, "close");
    caller.socket.destroy();
    await closed;
    expect(response.destroyed).toBe(true);
    expect(response.writableFinished).toBe(false);
    const partial = await open(port);
    partial.socket.write(`POST /v1/chat HTTP/1.1\r\nHost: hub\r\nContent-Length: 10\r\n\r\nabc`);
    await until(() => handled.length === 2, "the second call");
    const body = handled[1]!.readBody(MAX_BODY);
    partial.socket.destroy();
    await expect(body).rejects.toThrow(/closed the connection before sending the whole request body/);
  });

  it("closes a kept-alive connection idle past keepAliveTimeout, and idle ones at once on shutdown", async () => {
    const port = await startServer();
    server!.keepAliveTimeout = 500;
    const idle = await open(port);
    idle.socket.write(call("/v1/chat", "{}"));
    await until(() => idle.received().includes("front POST"), "the answer");
    expect(idle.received()).toContain("keep-alive: timeout=0");
    const started = Date.now();
    await idle.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    const busy = await open(port);
    busy.socket.write(call("/v1/hold", "x"));
    const waiting = await open(port);
    await until(() => held.length === 1, "the held call");
    front.closeIdleConnections();
    await waiting.closed;
    // A call in progress is answered, with the connection's end said in its head.
    held[0]!.end("last");
    await busy.closed;
    expect(busy.received()).toContain("\r\nconnection: close\r\n");
    expect(bodiesOf(busy.received())).toEqual(["last"]);
  });
});
