import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: a payload is read field by field in assertions
  body: any;
  /** The status the receiver answered. */
  answered: number;
}

/**
 * A webhook receiver on loopback for tests: records every request (before answering it), answers 500 to
 * the next `failNext(n)` ones, and lets a test wait for a count or a payload by polling, not sleeping.
 */
export async function startReceiver() {
  const received: ReceivedDelivery[] = [];
  let failures = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answered = failures > 0 ? 500 : 200;
      if (failures > 0) failures--;
      received.push({
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "null"),
        answered,
      });
      response.writeHead(answered, { "content-type": "text/plain" }).end(answered === 200 ? "ok" : "down");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** The next `n` requests are answered 500. */
    failNext(n: number): void {
      failures = n;
    },
    /** Waits (polling every 20 ms, at most `timeoutMs`) until `ready()` holds; throws saying what it saw. */
    async waitFor(ready: (all: readonly ReceivedDelivery[]) => boolean, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!ready(received)) {
        if (Date.now() > deadline) {
          throw new Error(
            `The receiver did not get what was expected; it got ${received.length}: ${JSON.stringify(
              received.map((r) => [r.answered, r.body?.event]),
            )}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
