import { type AddressInfo, createServer as createNetServer, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { startPipeHub } from "./__fixtures__/pipe-hub.js";
import type { ForwardTimeouts } from "./forward.js";

/**
 * A provider on raw TCP (`serve` gets each connection, to answer as it likes) behind a pipe hub: `call()` posts
 * to the hub, `results` collects each call's recorded status.
 */
async function rawProviderBehindHub(serve: (socket: Socket) => void, timeouts?: ForwardTimeouts) {
  const provider = createNetServer(serve);
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const results: number[] = [];
  const hub = await startPipeHub({
    baseUrl: `http://127.0.0.1:${(provider.address() as AddressInfo).port}`,
    key: "sk-test",
    publicUrl: "http://hub",
    onDone: (result) => results.push(result.status),
    timeouts,
  });
  const url = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/`;
  return {
    results,
    call: () => fetch(url, { method: "POST", body: "{}" }),
    close() {
      hub.close();
      provider.close();
    },
  };
}

/** Serves a chunked answer's head as soon as a request arrives, then whatever `stream` writes. */
function streamedAnswer(stream: (socket: Socket) => void) {
  return (socket: Socket) => {
    socket.once("data", () => {
      socket.write(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
      );
      stream(socket);
    });
  };
}

describe("callProvider on a pooled connection the provider closed", () => {
  it("sends the call once more on a new connection when the reused one is reset before any answer", async () => {
    // A provider that answers the first request of each connection and resets the connection on the second,
    // as one does when it closes an idle keep-alive connection just as the router reuses it.
    let connections = 0;
    const setup = await rawProviderBehindHub((socket) => {
      connections++;
      let requests = 0;
      socket.on("data", (data) => {
        if (!data.toString("latin1").includes("\r\n\r\n")) return;
        requests++;
        if (requests === 1) {
          socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");
        } else socket.resetAndDestroy();
      });
    });
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await setup.call();
        expect(answer.status).toBe(200);
        expect(await answer.text()).toBe("ok");
      }
      expect(setup.results).toEqual([200, 200, 200]);
      // Each reset connection was replaced by a new one.
      expect(connections).toBe(3);
    } finally {
      setup.close();
    }
  });
  it("does not send the call again when a new connection is cut before any answer", async () => {
    // A provider that takes each request and resets the connection: it had the call, and may have done the
    // work, so the router answers 502 rather than have it done twice.
    let requests = 0;
    const setup = await rawProviderBehindHub((socket) => {
      socket.on("data", (data) => {
        if (!data.toString("latin1").includes("\r\n\r\n")) return;
        requests++;
        socket.resetAndDestroy();
      });
    });
    try {
      const answer = await setup.call();
      expect(answer.status).toBe(502);
      // The fixture answers errors with their message as plain text (the router's JSON body: router-routes.ts).
      expect(await answer.text()).toMatch(/closed the connection before answering/);
      expect(requests).toBe(1);
      expect(setup.results).toEqual([502]);
    } finally {
      setup.close();
    }
  });
});

describe("callProvider with a malformed answer", () => {
  it("answers 502 saying what was wrong with the provider's answer", async () => {
    const setup = await rawProviderBehindHub((socket) => {
      socket.once("data", () => {
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok");
      });
    });
    try {
      const answer = await setup.call();
      expect(answer.status).toBe(502);
      expect(await answer.text()).toMatch(/not valid HTTP\/1\.1 \(Duplicate Content-Length\)/);
      expect(setup.results).toEqual([502]);
    } finally {
      setup.close();
    }
  });

  it("says so when the provider's headers are larger than the router reads (not that it was unreachable)", async () => {
    const setup = await rawProviderBehindHub((socket) => {
      // The router drops the connection with the head unread: a reset, which this end must not leave uncaught.
      socket.on("error", () => {});
      socket.once("data", () => {
        socket.write(`HTTP/1.1 200 OK\r\nX-Padding: ${"v".repeat(64 * 1024)}\r\nContent-Length: 2\r\n\r\nok`);
      });
    });
    try {
      const answer = await setup.call();
      expect(answer.status).toBe(502);
      expect(await answer.text()).toMatch(/headers larger than the router reads/);
      expect(setup.results).toEqual([502]);
    } finally {
      setup.close();
    }
  });
});

describe("callProvider with an informational head first", () => {
  it("passes on the answer after a 103 Early Hints head, not the 103", async () => {
    const setup = await rawProviderBehindHub((socket) => {
      socket.once("data", () => {
        socket.write("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n");
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}',
        );
      });
    });
    try {
      const answer = await setup.call();
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ ok: true });
      expect(answer.headers.get("link")).toBeNull();
      expect(setup.results).toEqual([200]);
    } finally {
      setup.close();
    }
  });
});

describe("callProvider with a streamed answer", () => {
  it("cuts the caller's connection when the provider falls silent mid-answer for longer than idleMs", async () => {
    const setup = await rawProviderBehindHub(
      streamedAnswer((socket) => socket.write("c\r\ndata: hello\n\r\n")),
      { headersMs: 5000, idleMs: 300 },
    );
    try {
      const started = performance.now();
      const answer = await setup.call();
      expect(answer.status).toBe(200);
      const reader = answer.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: hello\n");
      // The answer is visibly incomplete (the connection is cut), not silently short.
      await expect(reader.read()).rejects.toThrow();
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(3000);
      expect(setup.results).toEqual([502]);
    } finally {
      setup.close();
    }
  });

  it("ends a call whose caller reads nothing for longer than idleMs, freeing the provider's connection", async () => {
    let providerClosed = false;
    const setup = await rawProviderBehindHub(
      streamedAnswer((socket) => {
        socket.on("close", () => {
          providerClosed = true;
        });
        // The router closes the connection with the provider's bytes unread: a reset.
        socket.on("error", () => {});
        const frame = Buffer.from(`10000\r\n${"a".repeat(0x10000)}\r\n`);
        const writeMore = () => {
          while (socket.write(frame));
          socket.once("drain", writeMore);
        };
        writeMore();
      }),
      { headersMs: 5000, idleMs: 300 },
    );
    try {
      const answer = await setup.call();
      expect(answer.status).toBe(200);
      // The caller never reads: within idleMs and one sweep the call is ended and recorded as the caller's.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(setup.results).toEqual([499]);
      expect(providerClosed).toBe(true);
      await expect(answer.arrayBuffer()).rejects.toThrow();
    } finally {
      setup.close();
    }
  });

  it("stops reading the provider while the caller does not read, then passes every byte on", async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const total = 64 * 1024 * 1024;
    let written = 0;
    const setup = await rawProviderBehindHub(
      streamedAnswer((socket) => {
        const frame = Buffer.concat([
          Buffer.from(`${chunk.byteLength.toString(16)}\r\n`),
          chunk,
          Buffer.from("\r\n"),
        ]);
        const writeMore = () => {
          while (written < total) {
            written += chunk.byteLength;
            if (!socket.write(frame)) {
              socket.once("drain", writeMore);
              return;
            }
          }
          socket.write("0\r\n\r\n");
        };
        writeMore();
      }),
    );
    try {
      const answer = await setup.call();
      // The caller reads nothing for a while: the provider is held back by socket buffers, not read into memory.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(written).toBeLessThan(total / 2);
      let received = 0;
      const reader = answer.body!.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        received += read.value.byteLength;
      }
      expect(received).toBe(total);
      expect(setup.results).toEqual([200]);
    } finally {
      setup.close();
    }
  });
});

describe("callProvider reading an answer whole", () => {
  it("refuses a successful answer the provider broke off before its length (502), recorded as such", async () => {
    const setup = await rawProviderBehindHub((socket) => {
      socket.once("data", () => {
        socket.end(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":"cut',
        );
      });
    });
    try {
      const answer = await setup.call();
      expect(answer.status).toBe(502);
      expect(await answer.text()).toContain("broke off its answer");
      expect(setup.results).toEqual([502]);
    } finally {
      setup.close();
    }
  });

  it("passes on an error answer cut at the error limit, scrubbed, with a key cut there removed", async () => {
    const limit = 256 * 1024;
    // The key once in the body, and its first characters again right where the limit cuts the body.
    const head = "ERR sk-test ";
    const filler = "x".repeat(limit - head.length - 4);
    const body = `${head}${filler}sk-test and more after the limit`;
    const setup = await rawProviderBehindHub((socket) => {
      socket.once("data", () => {
        socket.write(
          `HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.end(body);
      });
    });
    try {
      const answer = await setup.call();
      expect(answer.status).toBe(500);
      const text = await answer.text();
      expect(text.startsWith("ERR [redacted] xxx")).toBe(true);
      expect(text).not.toContain("sk-t");
      expect(text).not.toContain("after the limit");
      expect(text.length).toBeLessThanOrEqual(limit);
      expect(setup.results).toEqual([500]);
    } finally {
      setup.close();
    }
  });
});
