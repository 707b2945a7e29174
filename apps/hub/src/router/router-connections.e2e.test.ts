import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { type AddressInfo, createConnection } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import { createMemoryLogger } from "../logger.js";
import type { RunningHub } from "../start-hub.js";

/**
 * The router's connections on both sides, against the real hub (node:http in, undici out), for what the
 * router's own front and HTTP client used to be tested for: a slow caller holds the provider back, a caller
 * whose body never comes costs the provider nothing, a caller gone cancels the provider's call, calls
 * pipelined on one kept-alive connection are answered in order.
 */
const MIB = 1024 * 1024;
let temp: ReturnType<typeof makeTempDir>;
let provider: Server;
let hub: RunningHub;
let token: string;
/** Calls the provider received, and bytes of its streamed answer written so far. */
let providerCalls = 0;
let written = 0;
/** Calls whose connection the hub closed before the provider answered. */
let cancelledCalls = 0;
const logger = createMemoryLogger();

beforeAll(async () => {
  temp = makeTempDir();
  // A provider answering every call with a 64 MiB stream, written as fast as its socket takes it.
  provider = createServer((request, response) => {
    providerCalls++;
    request.resume();
    if (request.headers.accept === "text/x-never") {
      // A provider that never answers: the test watches its call being cancelled.
      request.socket.once("close", () => {
        cancelledCalls++;
      });
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    response.writeHead(200, { "content-type": "application/octet-stream" });
    const writeMore = () => {
      while (written < 64 * MIB) {
        written += chunk.byteLength;
        if (!response.write(chunk)) {
          response.once("drain", writeMore);
          return;
        }
      }
      response.end();
    };
    written = 0;
    writeMore();
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    providerKeys: { together: "sk-connections-key" },
    providerBaseUrls: { together: `http://127.0.0.1:${(provider.address() as AddressInfo).port}` },
    providerSim: false,
    logger,
  });
  token = (
    await accountsService(hub.store.accounts).createToken(undefined, {
      name: "connections",
      scopes: ["inference"],
    })
  ).token;
});
afterAll(async () => {
  await hub?.close();
  provider?.closeAllConnections();
  await new Promise((resolve) => provider?.close(resolve));
  temp?.remove();
});

const usageCount = async () => (await hub.store.usage.summary()).reduce((n, row) => n + row.requests, 0);

describe("the router's connections", () => {
  it("holds the provider back while the caller does not read, then passes every byte on", async () => {
    const { hostname, port } = new URL(hub.url);
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = httpRequest(
        {
          hostname,
          port,
          method: "POST",
          path: "/router/together/v1/chat/completions",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        },
        resolve,
      );
      request.on("error", reject);
      request.end("{}");
    });
    expect(response.statusCode).toBe(200);
    // The caller reads nothing for a while: socket buffers fill and the provider waits, nothing piles up.
    response.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(written).toBeLessThan(32 * MIB);
    let received = 0;
    for await (const chunk of response) received += (chunk as Buffer).byteLength;
    expect(received).toBe(64 * MIB);
  });

  it("forwards nothing and records nothing for a caller that leaves before its body is whole", async () => {
    const callsBefore = providerCalls;
    const usageBefore = await usageCount();
    const { hostname, port } = new URL(hub.url);
    const caller = createConnection({ host: hostname, port: Number(port) });
    await new Promise((resolve) => caller.once("connect", resolve));
    caller.write(
      "POST /router/together/v1/chat/completions HTTP/1.1\r\n" +
        `Host: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\n` +
        "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n" +
        '{"model":',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    caller.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(providerCalls).toBe(callsBefore);
    expect(await usageCount()).toBe(usageBefore);
  });

  it("cancels the provider's call when the caller leaves before its answer, recorded as the caller's", async () => {
    const controller = new AbortController();
    const call = fetch(`${hub.url}/router/together/v1/chat/completions`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "text/x-never",
      },
      body: "{}",
      signal: controller.signal,
    });
    await expect.poll(() => providerCalls).toBeGreaterThan(0);
    const cancelledBefore = cancelledCalls;
    setTimeout(() => controller.abort(), 200);
    await expect(call).rejects.toThrow();
    await expect.poll(() => cancelledCalls).toBe(cancelledBefore + 1);
    await expect
      .poll(() =>
        logger.lines.some((line) => line.includes('"msg":"router call"') && line.includes('"status":499')),
      )
      .toBe(true);
  });

  it("answers calls pipelined on one kept-alive connection in order, a router call among them", async () => {
    const { hostname, port } = new URL(hub.url);
    const caller = createConnection({ host: hostname, port: Number(port) });
    const host = `Host: ${hostname}:${port}\r\n`;
    caller.write(
      `GET /healthz HTTP/1.1\r\n${host}\r\n` +
        `GET /v1/models HTTP/1.1\r\n${host}\r\n` +
        `GET /router/together HTTP/1.1\r\n${host}Authorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    );
    let raw = "";
    for await (const chunk of caller) raw += (chunk as Buffer).toString("latin1");
    const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    // Health, the model list, then the per-provider route refusing a call without a provider path.
    expect(statuses).toEqual([200, 200, 400]);
  });
});
