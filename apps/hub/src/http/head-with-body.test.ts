import { createServer, type RequestListener, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HubServerResponse } from "./head-with-body.js";
import { SECURITY_HEADERS } from "./security-headers.js";

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A node:http server answering with the hub's ServerResponse, on loopback. */
async function serve(listener: RequestListener): Promise<number> {
  server = createServer({ ServerResponse: HubServerResponse }, listener);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends one GET on a raw connection; resolves with each `data` read, and when it came (ms after sending). */
function reads(port: number, closeAfterMs: number): Promise<{ text: string; atMs: number }[]> {
  return new Promise((resolve, reject) => {
    const received: { text: string; atMs: number }[] = [];
    const socket = connect(port, "127.0.0.1");
    const started = performance.now();
    socket.setEncoding("latin1");
    socket.on("data", (text: string) => received.push({ text, atMs: performance.now() - started }));
    socket.on("error", reject);
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, closeAfterMs);
  });
}

describe("HubServerResponse", () => {
  it("sends a flushed head with the body bytes written in the same tick, in one write", async () => {
    const seen: { corked: number; buffered: number }[] = [];
    const port = await serve((_request, response) => {
      // As @hono/node-server answers a stream: head, flushHeaders, then the first chunk from a promise job.
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.flushHeaders();
      seen.push({ corked: response.socket!.writableCorked, buffered: response.socket!.writableLength });
      void Promise.resolve().then(() => response.write("data: first\n\n"));
      setTimeout(() => response.end(), 100);
    });
    const [first] = await reads(port, 300);
    // Held on the corked socket rather than written alone...
    expect(seen[0]!.corked).toBeGreaterThan(0);
    expect(seen[0]!.buffered).toBeGreaterThan(0);
    // ...and received with the first event.
    expect(first!.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(first!.text).toContain("\r\n\r\n");
    expect(first!.text).toContain("data: first");
  });

  it("still sends the head at once when the body has nothing ready", async () => {
    const port = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.flushHeaders();
      setTimeout(() => response.end("data: late\n\n"), 400);
    });
    const received = await reads(port, 700);
    expect(received[0]!.text).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n$/);
    expect(received[0]!.atMs).toBeLessThan(300);
    expect(received.map((read) => read.text).join("")).toContain("data: late");
  });

  it("leaves answers that are not flushed early as node:http writes them", async () => {
    const port = await serve((_request, response) => {
      response.end("whole");
    });
    const received = await reads(port, 200);
    expect(received.map((read) => read.text).join("")).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nwhole$/);
  });

  it("writes the security headers into every head, in each form writeHead takes, once each", async () => {
    const forms: ((response: import("node:http").ServerResponse) => void)[] = [
      (response) => response.writeHead(200, { "x-frame-options": "ALLOWALL", "X-Powered-By": "x" }).end("a"),
      (response) => response.writeHead(200, "Fine", { "X-Frame-Options": "ALLOWALL" }).end("b"),
      (response) => response.writeHead(200, ["X-Frame-Options", "ALLOWALL", "x-powered-by", "x"]).end("c"),
      (response) => response.writeHead(200, [["X-Frame-Options", "ALLOWALL"]] as never).end("d"),
      (response) => {
        response.setHeader("X-Frame-Options", "ALLOWALL");
        response.setHeader("X-Powered-By", "x");
        response.end("e");
      },
      (response) => response.writeHead(204).end(),
    ];
    let form = 0;
    const port = await serve((_request, response) => forms[form++]!(response));
    for (let i = 0; i < forms.length; i++) {
      const head = (await reads(port, 150))
        .map((read) => read.text)
        .join("")
        .split("\r\n\r\n")[0]!;
      const lines = head.split("\r\n").map((line) => line.toLowerCase());
      for (const [name, value] of SECURITY_HEADERS) {
        const sent = lines.filter((line) => line.startsWith(`${name.toLowerCase()}:`));
        expect(sent, `form ${i} ${name}`).toEqual([`${name.toLowerCase()}: ${value.toLowerCase()}`]);
      }
      expect(
        lines.some((line) => line.startsWith("x-powered-by")),
        `form ${i}`,
      ).toBe(false);
    }
  });
});
