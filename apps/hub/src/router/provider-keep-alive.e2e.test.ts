import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import type { RunningHub } from "../start-hub.js";

/**
 * A provider that sends no Keep-Alive hint, as most HTTPS APIs behind a CDN or load balancer do not: the
 * router keeps its idle connection past undici's 4 s default, so calls a few seconds apart do not each open
 * a new connection (a TLS handshake to a hosted provider).
 */
let temp: ReturnType<typeof makeTempDir>;
let provider: Server;
let hub: RunningHub;
let token: string;
let connections = 0;

beforeAll(async () => {
  temp = makeTempDir();
  provider = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: "x", object: "chat.completion", choices: [] }));
    });
  });
  // 0: node keeps idle connections and writes no `Keep-Alive: timeout=` hint.
  provider.keepAliveTimeout = 0;
  provider.on("connection", () => {
    connections++;
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    providerKeys: { together: "sk-keep-alive-key" },
    providerBaseUrls: { together: `http://127.0.0.1:${(provider.address() as AddressInfo).port}` },
    providerSim: false,
  });
  token = (
    await accountsService(hub.store.accounts).createToken(undefined, { name: "keep", scopes: ["inference"] })
  ).token;
});
afterAll(async () => {
  await hub?.close();
  provider?.closeAllConnections();
  await new Promise((resolve) => provider?.close(resolve));
  temp?.remove();
});

const call = async () => {
  const response = await fetch(`${hub.url}/router/together/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
};

describe("provider connections without a Keep-Alive hint", () => {
  it("are reused by a call 5 s after the last", async () => {
    await call();
    expect(connections).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await call();
    expect(connections).toBe(1);
  }, 20_000);
});
