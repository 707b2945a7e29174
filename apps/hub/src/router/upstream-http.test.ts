import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  CLOSED_CODE,
  dispatchUpstream,
  HEADERS_TIMEOUT_CODE,
  isConnectionCut,
  type UpstreamController,
  type UpstreamTarget,
} from "./upstream-http.js";

/** A provider written at the socket level: `answer` gets each request's head and the connection. */
async function rawProvider(answer: (head: string, socket: Socket, connection: number) => void) {
  let connections = 0;
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    const connection = ++connections;
    sockets.push(socket);
    let buffered = "";
    socket.on("data", (data) => {
      buffered += data.toString("latin1");
      for (let end = buffered.indexOf("\r\n\r\n"); end !== -1; end = buffered.indexOf("\r\n\r\n")) {
        const head = buffered.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        answer(head, socket, connection);
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const target: UpstreamTarget = {
    origin: `http://127.0.0.1:${port}`,
    pathPrefix: "",
    host: `127.0.0.1:${port}`,
  };
  return {
    target,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

interface Outcome {
  status?: number;
  headers?: string[];
  body: string;
  error?: Error & { code?: string };
}

/** Makes one call and waits for its end or failure. */
function call(
  target: UpstreamTarget,
  options: {
    headers?: string[];
    body?: string;
    headersTimeoutMs?: number;
    onData?: (c: UpstreamController) => void;
  } = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { body: "" };
    dispatchUpstream(
      target,
      {
        method: "POST",
        path: "/v1/chat/completions",
        headers: ["host", target.host, ...(options.headers ?? [])],
        body: options.body === undefined ? undefined : Buffer.from(options.body),
        headersTimeoutMs: options.headersTimeoutMs ?? 5000,
        bodyTimeoutMs: 5000,
      },
      {
        onRequestStart() {},
        onResponseStart(_controller, status, headers) {
          outcome.status = status;
          outcome.headers = headers;
        },
        onResponseData(controller, chunk) {
          outcome.body += chunk.toString();
          options.onData?.(controller);
        },
        onResponseEnd() {
          resolve(outcome);
        },
        onResponseError(_controller, error) {
          outcome.error = error;
          resolve(outcome);
        },
      },
    );
  });
}

const ok = (body: string, extra = "") =>
  `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("the router's upstream client", () => {
  it("sends the request head and body, and reuses one kept-alive connection call after call", async () => {
    const heads: string[] = [];
    const provider = await rawProvider((head, socket) => {
      heads.push(head);
      socket.write(ok(`answer ${heads.length}`));
    });
    close = provider.close;
    for (let i = 1; i <= 3; i++) {
      const outcome = await call(provider.target, { headers: ["x-a", "1"], body: '{"model":"m"}' });
      expect(outcome).toMatchObject({ status: 200, body: `answer ${i}` });
    }
    expect(provider.connections()).toBe(1);
    expect(heads[0]).toBe(`POST /v1/chat/completions HTTP/1.1\r\nhost: ${provider.target.host}\r\nx-a: 1`);
  });

  it("drops a connection the provider sent stray bytes on while idle, and answers the next call on a new one", async () => {
    const provider = await rawProvider((_head, socket, connection) => {
      socket.write(ok(`from connection ${connection}`));
      // A second, unasked-for answer, after the first was read: it must never reach the next call.
      if (connection === 1) setTimeout(() => socket.write(ok("stray")), 20);
    });
    close = provider.close;
    expect((await call(provider.target)).body).toBe("from connection 1");
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await call(provider.target)).body).toBe("from connection 2");
  });

  it("never reuses a connection whose answer was followed by more bytes", async () => {
    const provider = await rawProvider((_head, socket, connection) => {
      socket.write(ok(`from connection ${connection}`) + ok("stray"));
    });
    close = provider.close;
    expect((await call(provider.target)).body).toBe("from connection 1");
    expect((await call(provider.target)).body).toBe("from connection 2");
  });

  it("closes a connection before the provider's keep-alive timeout runs out, and after Connection: close", async () => {
    const provider = await rawProvider((_head, socket, connection) => {
      socket.write(
        ok(`${connection}`, connection === 1 ? "Keep-Alive: timeout=1\r\n" : "Connection: close\r\n"),
      );
    });
    close = provider.close;
    expect((await call(provider.target)).body).toBe("1");
    expect((await call(provider.target)).body).toBe("2");
    expect((await call(provider.target)).body).toBe("3");
  });

  it("fails a call whose provider sends no head in time, with a code the router tells apart", async () => {
    const provider = await rawProvider(() => {});
    close = provider.close;
    const started = performance.now();
    const outcome = await call(provider.target, { headersTimeoutMs: 300 });
    expect(outcome.error?.code).toBe(HEADERS_TIMEOUT_CODE);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("reports a connection closed before an answer as a cut (the router sends such a call once more)", async () => {
    const provider = await rawProvider((_head, socket) => socket.end());
    close = provider.close;
    const outcome = await call(provider.target);
    expect(outcome.error?.code).toBe(CLOSED_CODE);
    expect(isConnectionCut(outcome.error!)).toBe(true);
  });

  it("aborts a call mid-answer: the handler hears the reason once and the connection is closed", async () => {
    const provider = await rawProvider((_head, socket) => {
      socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n");
    });
    close = provider.close;
    const reason = new Error("caller left");
    const outcome = await call(provider.target, { onData: (controller) => controller.abort(reason) });
    expect(outcome).toMatchObject({ status: 200, body: "first", error: reason });
    // The aborted call's connection is gone: the next call opens another.
    await call(provider.target, { onData: (controller) => controller.abort(reason) });
    expect(provider.connections()).toBe(2);
  });

  it("reads the next call on a connection whose last call ended while paused (back-pressure)", async () => {
    const provider = await rawProvider((_head, socket, connection) => socket.write(ok(`${connection}`)));
    close = provider.close;
    // The handler pauses at the only body chunk; the answer then ends with the connection paused.
    expect((await call(provider.target, { onData: (controller) => controller.pause() })).body).toBe("1");
    await new Promise((resolve) => setImmediate(resolve));
    const next = await call(provider.target, { headersTimeoutMs: 1000 });
    expect(next).toMatchObject({ status: 200, body: "1" });
    expect(provider.connections()).toBe(1);
  });

  it("refuses a header value with a line break without sending anything", async () => {
    const provider = await rawProvider((_head, socket) => socket.write(ok("sent")));
    close = provider.close;
    const outcome = await call(provider.target, { headers: ["x-a", "1\r\nx-injected: 1"] });
    expect(outcome.error?.message).toMatch(/line break/);
    expect(provider.connections()).toBe(0);
  });

  it("fails a call to a port nobody listens on as unreachable", async () => {
    const provider = await rawProvider(() => {});
    await provider.close();
    const outcome = await call(provider.target);
    expect(outcome.error?.code).toBe("ECONNREFUSED");
  });
});
