import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import type { RunningHub } from "../start-hub.js";
import { grantGatedModelsToEveryone, INFERENCE_TOKEN_FOR_GATED_MODELS } from "./__fixtures__/gated-grants.js";

/**
 * The router's routes (router-routes.ts) run behind the app's middleware like every route: their refusals
 * carry the hub's JSON error shape and the app's headers (request id, CORS, security headers).
 */
let temp: ReturnType<typeof makeTempDir>;
let sim: ProviderSim;
let hub: RunningHub;
let token: string;

beforeAll(async () => {
  temp = makeTempDir();
  sim = await startProviderSim();
  const providerBaseUrls = Object.fromEntries(INFERENCE_PROVIDERS.map((p) => [p, sim.providerUrl(p)]));
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    providerBaseUrls,
    forwardSimHeaders: true,
  });
  token = (
    await accountsService(hub.store.accounts).createToken(undefined, {
      name: "parity",
      ...INFERENCE_TOKEN_FOR_GATED_MODELS,
    })
  ).token;
  // The catalogue's gated models need a grant for inference, as for their files.
  await grantGatedModelsToEveryone(hub.store);
});
afterAll(async () => {
  await hub?.close();
  await sim?.close();
  temp?.remove();
});

/** Raw HTTP, so that the target reaches the hub exactly as written. */
function rawPost(path: string, headers: Record<string, string>, body = "{}") {
  return rawCall("POST", path, headers, body);
}

function rawCall(method: string, path: string, headers: Record<string, string>, body?: string) {
  const { hostname, port } = new URL(hub.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const request = httpRequest({ hostname, port, path, method, headers }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      });
      request.on("error", reject);
      request.end(body);
    },
  );
}

const ELSEWHERE = "https://elsewhere.example";

describe("the router's routes", () => {
  const cases: Array<[string, string, () => Record<string, string>, number, string]> = [
    [
      "unknown provider",
      "/router/acme-ai/v1/chat/completions",
      () => ({ Authorization: `Bearer ${token}` }),
      404,
      "not_found",
    ],
    [
      "encoded provider",
      "/router/to%67ether/v1/chat/completions",
      () => ({ Authorization: `Bearer ${token}` }),
      404,
      "not_found",
    ],
    [
      "provider alone",
      "/router/together",
      () => ({ Authorization: `Bearer ${token}` }),
      400,
      "invalid_input",
    ],
    ["no token", "/router/together/v1/chat/completions", () => ({}), 401, "unauthorized"],
    [
      "not a hub token",
      "/router/together/v1/chat/completions",
      () => ({ Authorization: "Bearer sk-1" }),
      401,
      "unauthorized",
    ],
    [
      "unknown hub token",
      "/router/together/v1/x",
      () => ({ Authorization: `Bearer hf_${"x".repeat(34)}` }),
      401,
      "unauthorized",
    ],
    [
      "no provider path",
      "/router/together/",
      () => ({ Authorization: `Bearer ${token}` }),
      400,
      "invalid_input",
    ],
    [
      "encoded slash",
      "/router/together/v1%2Fx",
      () => ({ Authorization: `Bearer ${token}` }),
      400,
      "invalid_input",
    ],
    [
      "unusual characters",
      '/router/together/v1/"x"',
      () => ({ Authorization: `Bearer ${token}` }),
      400,
      "invalid_input",
    ],
  ];
  it.each(cases)("refuses with the hub's JSON error: %s", async (_name, path, headersOf, status, code) => {
    // A browser's cross-origin call (it sends Origin): CORS headers as well (without: see below).
    const response = await rawPost(path, {
      "Content-Type": "application/json",
      Origin: ELSEWHERE,
      ...headersOf(),
    });
    expect(response.status).toBe(status);
    const body = JSON.parse(response.body) as { code: string; error: string; requestId: string };
    expect(body).toMatchObject({
      code,
      error: expect.any(String),
      requestId: response.headers["x-request-id"],
    });
    expect(response.headers).toMatchObject({
      "x-error-code": code,
      "content-type": "application/json",
      "access-control-allow-origin": "*",
      "x-content-type-options": "nosniff",
      "x-frame-options": "SAMEORIGIN",
    });
  });

  it("passes a provider's error through with the hub's headers over the provider's", async () => {
    const response = await rawPost("/router/together/v1/chat/completions", {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      "x-sim-fault": "rate-limit:7",
      Origin: ELSEWHERE,
    });
    expect(response.status).toBe(429);
    expect(response.headers["retry-after"]).toBe("7");
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(response.body).not.toMatch(/hf_sim/);
  });

  it("keeps a well-formed caller request id and replaces a malformed one", async () => {
    const kept = await rawPost("/router/acme-ai/v1/x", { "X-Request-Id": "caller-id-1" });
    expect(kept.headers["x-request-id"]).toBe("caller-id-1");
    const replaced = await rawPost("/router/acme-ai/v1/x", { "X-Request-Id": "bad id!" });
    expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("leaves preflights and other methods to the Hono app", async () => {
    const preflight = await fetch(`${hub.url}/router/together/v1/chat/completions`, {
      method: "OPTIONS",
      headers: { Origin: "http://example.test", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const put = await fetch(`${hub.url}/router/together/v1/chat/completions`, { method: "PUT" });
    expect(put.status).toBe(404);
  });
});

describe("CORS headers follow the caller's Origin", () => {
  const EXPOSED = "Link,X-Request-Id,X-Error-Code,X-Error-Message,X-Inference-Provider";
  const chatBody = (model: string, stream: boolean) =>
    JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], stream });
  /** [name, path, model, extra headers, expected status]: both paths, success and error, streamed and not. */
  const calls: Array<[string, string, string, Record<string, string>, number]> = [];
  for (const [pathName, path, model] of [
    [
      "/router/{provider}",
      "/router/together/v1/chat/completions",
      "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
    ],
    ["/v1", "/v1/chat/completions", "meta-llama/Llama-3.1-8B-Instruct:together"],
  ] as const) {
    calls.push([`${pathName}, answered`, path, model, {}, 200]);
    calls.push([`${pathName}, provider's error`, path, model, { "x-sim-fault": "rate-limit:7" }, 429]);
    calls.push([`${pathName}, hub's error`, path, model, { Authorization: "Bearer sk-1" }, 401]);
  }
  const send = (path: string, model: string, stream: boolean, headers: Record<string, string>) =>
    rawPost(
      path,
      { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...headers },
      chatBody(model, stream),
    );

  describe.each([false, true])("streamed: %s", (stream) => {
    it.each(calls)("%s", async (_name, path, model, headers, status) => {
      const plain = await send(path, model, stream, headers);
      expect(plain.status).toBe(status);
      expect(Object.keys(plain.headers).filter((name) => name.startsWith("access-control-"))).toEqual([]);
      // The security headers and the request id stay: no-cors loads send no Origin.
      expect(plain.headers).toMatchObject({
        "x-request-id": expect.any(String),
        "x-content-type-options": "nosniff",
        "cross-origin-resource-policy": "cross-origin",
      });

      const browser = await send(path, model, stream, { ...headers, Origin: ELSEWHERE });
      expect(browser.status).toBe(status);
      expect(browser.headers).toMatchObject({
        "access-control-allow-origin": "*",
        "access-control-expose-headers": EXPOSED,
        "x-request-id": expect.any(String),
        "x-content-type-options": "nosniff",
      });
      if (status === 200 && stream) {
        expect(browser.headers["content-type"]).toContain("text/event-stream");
        expect(browser.body).toContain("data: [DONE]");
      }
    });
  });

  it("marks GET answers, which a cache may keep, as varying with Origin (and the caller)", async () => {
    // /v1/models also varies with Authorization: an organization's own providers are listed to its members
    // only (docs/decisions/org-own-providers.md).
    const plain = await rawCall("GET", "/v1/models", {});
    expect(plain.status).toBe(200);
    expect(plain.headers.vary).toBe("Origin, Authorization");
    expect(plain.headers["access-control-allow-origin"]).toBeUndefined();
    const browser = await rawCall("GET", "/v1/models", { Origin: ELSEWHERE });
    expect(browser.headers).toMatchObject({
      vary: "Origin, Authorization",
      "access-control-allow-origin": "*",
    });
  });

  it("leaves Hono's other /router answers in step: CORS only with Origin, preflights as before", async () => {
    const put = await rawCall("PUT", "/router/together/v1/chat/completions", {});
    expect(put.status).toBe(404);
    expect(put.headers["access-control-allow-origin"]).toBeUndefined();
    const browserPut = await rawCall("PUT", "/router/together/v1/chat/completions", { Origin: ELSEWHERE });
    expect(browserPut.headers["access-control-allow-origin"]).toBe("*");
  });
});

describe("a hub left to its defaults", () => {
  let plain: RunningHub;
  let plainToken: string;
  beforeAll(async () => {
    // Only together has somewhere to go; no simulator for the rest; callers' x-sim-* headers not forwarded.
    plain = await startTestHub({
      dataDir: join(temp.dir, "plain"),
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      providerBaseUrls: { together: sim.providerUrl("together") },
      providerSim: false,
    });
    plainToken = (
      await accountsService(plain.store.accounts).createToken(undefined, {
        name: "plain",
        ...INFERENCE_TOKEN_FOR_GATED_MODELS,
      })
    ).token;
    await grantGatedModelsToEveryone(plain.store);
  });
  afterAll(() => plain?.close());

  const chat = (provider: string, headers: Record<string, string> = {}) =>
    fetch(`${plain.url}/router/${provider}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${plainToken}`, "Content-Type": "application/json", ...headers },
      body: JSON.stringify({
        model: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
        messages: [{ role: "user", content: "hi" }],
      }),
    });

  it("strips the simulator's x-sim-* headers from callers' requests", async () => {
    sim.clearRequests();
    const response = await chat("together", { "x-sim-fault": "503", "X-Sim-Stream-Chunks": "3" });
    expect(response.status).toBe(200);
    const forwarded = sim.requests.at(-1);
    expect(Object.keys(forwarded?.headers ?? {}).filter((name) => name.startsWith("x-sim-"))).toEqual([]);
  });

  it("answers 503 naming the key to configure for a provider with nowhere to go", async () => {
    const response = await chat("cerebras");
    expect(response.status).toBe(503);
    const body = (await response.json()) as { code: string; error: string };
    expect(body.code).toBe("unavailable");
    expect(body.error).toContain("CEREBRAS_API_KEY");
  });
});

describe("the provider's key never comes back", () => {
  const KEY = "sk-provider-key-0123456789";
  let echo: Server;
  let keyed: RunningHub;
  let keyedToken: string;
  beforeAll(async () => {
    // A provider that echoes its key in a header and, split across two writes, in a successful body.
    echo = createServer((request, response) => {
      const auth = String(request.headers.authorization);
      response.writeHead(200, { "content-type": "text/event-stream", "x-echo": auth });
      response.write(`data: {"key":"${KEY.slice(0, 9)}`);
      setTimeout(() => response.end(`${KEY.slice(9)}"}\n\ndata: [DONE]\n\n`), 20);
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    keyed = await startTestHub({
      dataDir: join(temp.dir, "keyed"),
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      providerKeys: { together: KEY },
      providerBaseUrls: { together: `http://127.0.0.1:${(echo.address() as AddressInfo).port}` },
      providerSim: false,
    });
    keyedToken = (
      await accountsService(keyed.store.accounts).createToken(undefined, {
        name: "keyed",
        scopes: ["inference"],
      })
    ).token;
  });
  afterAll(async () => {
    await keyed?.close();
    await new Promise((resolve) => echo?.close(resolve));
  });

  it("is scrubbed from the headers and the body of a successful answer", async () => {
    const response = await fetch(`${keyed.url}/router/together/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${keyedToken}`, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-echo")).toBe("Bearer [redacted]");
    const text = await response.text();
    expect(text).toBe('data: {"key":"[redacted]"}\n\ndata: [DONE]\n\n');
  });
});
