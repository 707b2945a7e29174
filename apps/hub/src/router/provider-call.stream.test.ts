import { request as httpRequest, type Server } from "node:http";
import {
  type AddressInfo,
  createConnection,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frameChunk } from "./__fixtures__/chunked.js";
import { startPipeHub } from "./__fixtures__/pipe-hub.js";
import type { ForwardResult } from "./forward.js";

/**
 * A streamed answer through callProvider, from a provider written on raw TCP (so that the test decides what
 * arrives in one read and what in two) to a caller reading the hub's answer as it comes.
 */
const KEY = "sk-stream-key-0123456789";
const HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
const END = "0\r\n\r\n";

/** What the provider does with the next call's socket. */
let answer: (socket: Socket) => Promise<void> | void;
let provider: NetServer;
let hub: Server;
let baseUrl: string;
const results: ForwardResult[] = [];

beforeAll(async () => {
  provider = createNetServer((socket) => {
    socket.setNoDelay(true);
    let request = "";
    socket.on("data", (data) => {
      request += data.toString("latin1");
      // The hub's request is `{}` with its Content-Length: answer once it is all there.
      if (!request.includes("\r\n\r\n{}")) return;
      request = "";
      void answer(socket);
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/base`;
  hub = await startPipeHub({
    baseUrl,
    key: KEY,
    publicUrl: "http://hub.example",
    onDone: (result) => results.push(result),
  });
});
afterAll(async () => {
  await new Promise((resolve) => hub?.close(resolve));
  await new Promise((resolve) => provider?.close(resolve));
});

/** Calls the hub; `onData` sees the caller's text so far after each read. */
function call(onData?: (text: string) => void): Promise<{ status: number; text: string }> {
  const { port } = hub.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        hostname: "127.0.0.1",
        port,
        method: "POST",
        path: "/",
        headers: { "content-type": "application/json" },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
          onData?.(text);
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end("{}");
  });
}

function resolvable(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const framed = (parts: string[]) =>
  parts.map((part) => frameChunk(Buffer.from(part)).toString("latin1")).join("");

describe("a streamed answer", () => {
  // The key and the provider's base URL, as a provider may echo them; the base URL is known once it listens.
  let body = "";
  const scrubbed = () =>
    `data: {"key":"[redacted]","url":"http://hub.example/router/together/v1/get?id=1"}\n\ndata: [DONE]\n\n`;
  beforeAll(() => {
    body = `data: {"key":"${KEY}","url":"${baseUrl}/v1/get?id=1"}\n\ndata: [DONE]\n\n`;
  });

  it("is scrubbed of the key and the base URL split across two chunks of one read, at every offset", async () => {
    for (let split = 1; split < body.length; split++) {
      // Both chunks and the end in one write: the hub reads them at once.
      answer = (socket) => {
        socket.write(HEAD + framed([body.slice(0, split), body.slice(split)]) + END);
      };
      const { status, text } = await call();
      expect(status).toBe(200);
      expect(text, `split at ${split}`).toBe(scrubbed());
    }
  });

  it("is scrubbed when every byte is its own chunk", async () => {
    answer = (socket) => {
      socket.write(HEAD + framed([...body]) + END);
    };
    expect((await call()).text).toBe(scrubbed());
  });

  it("is scrubbed of the key split across two reads, at every offset", async () => {
    const keyAt = body.indexOf(KEY);
    for (let split = keyAt; split <= keyAt + KEY.length; split++) {
      answer = async (socket) => {
        socket.write(HEAD + framed([body.slice(0, split)]));
        await sleep(5);
        socket.write(framed([body.slice(split)]) + END);
      };
      const { text } = await call();
      expect(text, `split at ${split}`).toBe(scrubbed());
    }
  });

  it("passes each read on before the next arrives, and counts the provider's bytes", async () => {
    const events = ["data: 1\n\n", "data: 2\n\n", "data: [DONE]\n\n"];
    let seen = resolvable();
    let waitingFor = events[0]!;
    answer = async (socket) => {
      socket.write(HEAD);
      for (const [index, event] of events.entries()) {
        waitingFor = events.slice(0, index + 1).join("");
        socket.write(framed([event]) + (index === events.length - 1 ? END : ""));
        // The next event is only sent once the caller has this one: nothing is held back for later reads.
        if (index < events.length - 1) await seen.promise;
        seen = resolvable();
      }
    };
    results.length = 0;
    const { text } = await call((sofar) => {
      if (sofar === waitingFor) seen.resolve();
    });
    expect(text).toBe(events.join(""));
    await expect.poll(() => results.length).toBe(1);
    expect(results[0]).toMatchObject({ status: 200, responseBytes: events.join("").length });
  });

  it("sends the head at once when the provider's first event is slow, and with it when it is not", async () => {
    let headAt = 0;
    let firstEventAt = 0;
    answer = async (socket) => {
      socket.write(HEAD);
      await sleep(300);
      socket.write(framed(["data: 1\n\n"]) + END);
    };
    const started = performance.now();
    const { port } = hub.address() as AddressInfo;
    const text = await new Promise<string>((resolve, reject) => {
      const request = httpRequest({ hostname: "127.0.0.1", port, method: "POST", path: "/" }, (response) => {
        headAt = performance.now() - started;
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          firstEventAt ||= performance.now() - started;
          body += chunk;
        });
        response.on("end", () => resolve(body));
      });
      request.on("error", reject);
      request.end("{}");
    });
    expect(text).toBe("data: 1\n\n");
    expect(firstEventAt).toBeGreaterThanOrEqual(290);
    // Not held for the first event: the head reached the caller well before it.
    expect(headAt).toBeLessThan(200);
  });

  it("passes a streamed answer to an HTTP/1.0 caller unframed, scrubbed, to the connection's close", async () => {
    answer = async (socket) => {
      socket.write(HEAD + framed(["data: 1\n\n", `data: ${KEY.slice(0, 5)}`]));
      await sleep(5);
      socket.write(framed([`${KEY.slice(5)}\n\n`]) + END);
    };
    const { port } = hub.address() as AddressInfo;
    const caller = createConnection({ host: "127.0.0.1", port });
    caller.write("POST / HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}");
    let raw = "";
    for await (const chunk of caller) raw += chunk;
    const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head.toLowerCase()).not.toContain("transfer-encoding");
    expect(raw.slice(head.length + 4)).toBe("data: 1\n\ndata: [redacted]\n\n");
  });

  it("holds back a tail that may start the key until the next read shows it does not", async () => {
    const tail = KEY.slice(0, 8);
    let held = "";
    answer = async (socket) => {
      socket.write(HEAD + framed([`data: ${tail}`]));
      await sleep(30);
      held = sofar;
      socket.write(framed([" and more\n\n"]) + END);
    };
    let sofar = "";
    const { text } = await call((text) => {
      sofar = text;
    });
    expect(held).toBe("data: ");
    expect(text).toBe(`data: ${tail} and more\n\n`);
  });

  it("cuts the caller's connection after what was read when the provider drops mid-answer", async () => {
    let sofar = "";
    answer = (socket) => {
      socket.end(HEAD + framed(["data: 1\n\n", "data: 2\n\n"]));
    };
    await expect(
      call((text) => {
        sofar = text;
      }),
    ).rejects.toThrow();
    expect(sofar).toBe("data: 1\n\ndata: 2\n\n");
  });
});
