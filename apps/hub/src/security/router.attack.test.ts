import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { type RunningHub, startHub } from "../start-hub.js";

/**
 * Attacks on the router (issue 32, class 6: "the router reaches only inference"), each by an ordinary user
 * against a real hub on loopback, in raw HTTP. The hub holds the operator's keys for `openai` (sent to the
 * provider simulator) and `cerebras` (sent to a hostile provider below that echoes the key it receives in
 * every form it can think of).
 */
const OPENAI_KEY = "sk-OperatorKey_4fQ9zLm2Xv7Rb8Tn1Wc6Yp3";
const ECHO_KEY = "sk-EchoKey_9f3Kq2Lm7Xz4Wv8Bn1Rt6Yp0Hd5";
const PRIVATE = "acme/private-chat";
const PRIVATE_PROVIDER_ID = "acme-private-chat-v1";
const GATED = "acme/gated-chat";
const GATED_PROVIDER_ID = "acme-gated-chat-v1";
/** A private model Replicate serves as one version of a model. */
const PRIVATE_IMAGES = "acme/private-images";
const PRIVATE_VERSION = "5599ed30703defd1d160a25a63321b4dec97101d98b4674bcc56e41f62f35637";
/** A public, ungated model served by the hostile provider. */
const ECHOED = "acme/echo-chat";

let stop: (() => Promise<void>) | undefined;
let hub: RunningHub;
let sim: ProviderSim;
let echo: Server;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];

/** Every form in which a provider may echo a key: as is, case-changed, base64 (any alignment), \u-escaped. */
function keyForms(key: string): Record<string, string> {
  const escapeAll = (hex: (code: number) => string) =>
    [...key].map((char) => `\\u${hex(char.charCodeAt(0))}`).join("");
  const mixedCase = [...key].map((char, i) => (i % 2 ? char.toLowerCase() : char.toUpperCase())).join("");
  return {
    lower: key.toLowerCase(),
    upper: key.toUpperCase(),
    mixedCase,
    base64: Buffer.from(key).toString("base64"),
    base64url: Buffer.from(key).toString("base64url"),
    basicAuth: Buffer.from(`operator:${key}`).toString("base64"),
    bearerBase64: Buffer.from(`Bearer ${key}`).toString("base64"),
    escaped: escapeAll((code) => code.toString(16).padStart(4, "0")),
    escapedUpperHex: escapeAll((code) => code.toString(16).padStart(4, "0").toUpperCase()),
    halfEscaped: [...key]
      .map((char, i) => (i % 2 ? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}` : char))
      .join(""),
  };
}

/** What of `forms` is in `text` (the literal key in any case counts too). */
function leakedForms(text: string, key: string): string[] {
  const leaked = Object.entries(keyForms(key))
    .filter(([, form]) => text.includes(form))
    .map(([name]) => name);
  if (text.toLowerCase().includes(key.toLowerCase())) leaked.push("literal (any case)");
  return leaked;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A hostile provider: answers every call with the key it was sent, in the form the caller's first message
 * asks for, in a response header, a JSON body, an error body, or an event stream cut into small pieces.
 */
async function answerWithKey(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const auth = request.headers.authorization ?? "";
  const key = auth.replace(/^Bearer /, "");
  let where = "body";
  try {
    where = (JSON.parse(Buffer.concat(chunks).toString()) as { messages: { content: string }[] }).messages[0]!
      .content;
  } catch {}
  const forms = Object.values(keyForms(key));
  const everything = [key, ...forms].join(" | ");
  if (where === "headers") {
    const headers: Record<string, string> = { "content-type": "application/json" };
    forms.forEach((form, i) => {
      headers[`x-debug-${i}`] = form;
    });
    headers["x-request-id"] = key;
    headers["www-authenticate"] = `Bearer realm="${key.toLowerCase()}"`;
    response.writeHead(200, headers);
    response.end(JSON.stringify({ ok: true }));
    return;
  }
  if (where === "error") {
    response.writeHead(401, { "content-type": "application/json" });
    response.end(`{"error":{"message":"Incorrect API key provided: ${everything}"}}`);
    return;
  }
  if (where === "gzip") {
    // Compressed, the key is out of the scrubber's sight: the router must not pass such an answer on.
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    response.end(gzipSync(`{"key":"${key}","forms":"${everything}"}`));
    return;
  }
  if (where === "cut") {
    // An answer that ends in the middle of the key, after its first characters.
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(`data: {"choices":[{"delta":{"content":"${key.slice(0, -3)}`);
    await pause(5);
    response.end();
    return;
  }
  if (where === "stream") {
    response.writeHead(200, { "content-type": "text/event-stream" });
    const events = forms.map((form) => `data: {"choices":[{"delta":{"content":"${form}"}}]}\n\n`).join("");
    const stream = Buffer.from(`${events}data: {"key":"${key.toUpperCase()}"}\n\ndata: [DONE]\n\n`);
    // Small pieces, each its own read at the hub: every form is cut across reads somewhere.
    for (let at = 0; at < stream.byteLength; at += 7) {
      response.write(stream.subarray(at, at + 7));
      await pause(2);
    }
    response.end();
    return;
  }
  response.writeHead(200, { "content-type": "application/json" });
  response.end(`{"id":"x","choices":[{"message":{"content":"${everything}"}}]}`);
}

beforeAll(async () => {
  echo = createServer((request, response) => {
    answerWithKey(request, response).catch(() => response.destroy());
  });
  echo.listen(0, "127.0.0.1");
  await once(echo, "listening");
  const echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  const temp = makeTempDir();
  sim = await startProviderSim();
  hub = await startHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    providerBaseUrls: {
      ...Object.fromEntries(INFERENCE_PROVIDERS.map((p) => [p, sim.providerUrl(p)])),
      cerebras: echoUrl,
    },
    providerKeys: { openai: OPENAI_KEY, cerebras: ECHO_KEY },
  });
  stop = async () => {
    await hub.close();
    await sim.close();
    temp.remove();
  };
  ({ tokens } = await seedAccounts(hub.store));
  const base = (await hub.store.models.get("meta-llama/Llama-3.1-8B-Instruct"))!;
  await hub.store.models.upsert({ ...base, id: PRIVATE, private: true, gated: false });
  await hub.store.models.upsert({ ...base, id: GATED, private: false, gated: "manual" });
  await hub.store.models.upsert({ ...base, id: ECHOED, private: false, gated: false });
  await hub.store.mappings.set(ECHOED, "cerebras", {
    status: "live",
    providerId: "echo-chat",
    task: "conversational",
  });
  for (const [model, providerId] of [
    [PRIVATE, PRIVATE_PROVIDER_ID],
    [GATED, GATED_PROVIDER_ID],
  ] as const) {
    await hub.store.mappings.set(model, "together", { status: "live", providerId, task: "conversational" });
  }
  await hub.store.models.upsert({ ...base, id: PRIVATE_IMAGES, private: true, gated: false });
  await hub.store.mappings.set(PRIVATE_IMAGES, "replicate", {
    status: "live",
    providerId: `acme/private-images:${PRIVATE_VERSION}`,
    task: "text-to-image",
  });
}, 30_000);

afterAll(async () => {
  await stop?.();
  echo?.close();
});

beforeEach(() => sim.clearRequests());

async function call(
  method: string,
  path: string,
  options: { token?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const response = await fetch(`${hub.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${options.token ?? tokens.ottoWrite}`,
      ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
      ...options.headers,
    },
    body: options.body,
  });
  const text = await response.text();
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  return { status: response.status, text, headers, all: `${headers}\n\n${text}` };
}

const chatBody = (model: string, content = "Hello", extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model, messages: [{ role: "user", content }], max_tokens: 8, ...extra });

describe("the router forwards only providers' inference calls", () => {
  it.each([
    ["POST", "/router/openai/v1/files", "{}"],
    ["GET", "/router/openai/v1/files", undefined],
    ["GET", "/router/openai/v1/organization/admin_api_keys", undefined],
    ["POST", "/router/openai/v1/organization/admin_api_keys", '{"name":"mine"}'],
    ["POST", "/router/openai/v1/fine_tuning/jobs", '{"model":"gpt-4o-mini","training_file":"file-1"}'],
    ["GET", "/router/openai/v1/models", undefined],
    ["GET", "/router/openai/v1/chat/completions", undefined],
    ["POST", "/router/openai/v1/chat/completions/chatcmpl-1", "{}"],
    ["GET", "/router/together/v1/models", undefined],
    ["POST", "/router/replicate/v1/trainings", "{}"],
    ["POST", "/router/black-forest-labs/v1/finetune", "{}"],
  ])("refuses %s %s with the hub's JSON error, sending nothing on", async (method, path, body) => {
    const answer = await call(method, path, { body });
    expect([403, 404]).toContain(answer.status);
    expect(JSON.parse(answer.text)).toMatchObject({ error: expect.stringMatching(/inference/) });
    expect(sim.requests).toEqual([]);
    expect(leakedForms(answer.all, OPENAI_KEY)).toEqual([]);
  });

  it("still forwards an inference call with the operator's key", async () => {
    const answer = await call("POST", "/router/openai/v1/chat/completions", {
      body: chatBody("openai/gpt-4o-mini"),
    });
    expect(answer.status).toBe(200);
    expect(sim.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /openai/v1/chat/completions",
    ]);
  });
});

describe("callers cannot change the method or add headers the provider acts on", () => {
  it("forwards no method-override header, nor other headers outside the router's list", async () => {
    const answer = await call("POST", "/router/openai/v1/chat/completions", {
      body: chatBody("openai/gpt-4o-mini"),
      headers: {
        "X-HTTP-Method-Override": "DELETE",
        "X-HTTP-Method": "DELETE",
        "X-Method-Override": "DELETE",
        "OpenAI-Organization": "org-someone-else",
        "OpenAI-Project": "proj-someone-else",
      },
    });
    expect(answer.status).toBe(200);
    expect(sim.requests).toHaveLength(1);
    const forwarded = Object.keys(sim.requests[0]!.headers);
    for (const name of [
      "x-http-method-override",
      "x-http-method",
      "x-method-override",
      "openai-organization",
      "openai-project",
    ]) {
      expect(forwarded).not.toContain(name);
    }
    expect(sim.requests[0]!.method).toBe("POST");
  });
});

describe("the operator's key never reaches the caller, in any form", () => {
  it.each(["headers", "body", "error", "stream"])("echoed in the provider's %s", async (where) => {
    const answer = await call("POST", "/router/cerebras/v1/chat/completions", {
      body: chatBody("echo-chat", where, where === "stream" ? { stream: true } : {}),
    });
    // The hostile provider did answer (with the key in every form), and the hub scrubbed all of it.
    expect(answer.status).toBe(where === "error" ? 401 : 200);
    if (where !== "headers") expect(answer.text).toContain("[redacted]");
    expect(leakedForms(answer.all, ECHO_KEY)).toEqual([]);
  });

  it("in a compressed answer, which is refused", async () => {
    const answer = await call("POST", "/router/cerebras/v1/chat/completions", {
      body: chatBody("echo-chat", "gzip"),
    });
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.text)).toMatchObject({ code: "upstream_error" });
    expect(leakedForms(answer.all, ECHO_KEY)).toEqual([]);
  });

  it("when the answer ends partway through the key", async () => {
    const answer = await call("POST", "/router/cerebras/v1/chat/completions", {
      body: chatBody("echo-chat", "cut", { stream: true }),
    });
    expect(answer.text).toContain("[redacted]");
    expect(answer.text).not.toContain(ECHO_KEY.slice(0, 12));
  });

  it("echoed through the OpenAI-compatible API too", async () => {
    for (const where of ["body", "stream", "error"]) {
      const answer = await call("POST", "/v1/chat/completions", {
        body: chatBody(`${ECHOED}:cerebras`, where, where === "stream" ? { stream: true } : {}),
      });
      expect(answer.text).toContain("[redacted]");
      expect(leakedForms(answer.all, ECHO_KEY)).toEqual([]);
    }
  });
});

describe("the body is read as JSON before the model check", () => {
  it.each([
    ["a leading space", ` ${chatBody(PRIVATE_PROVIDER_ID)}`],
    ["leading newlines and tabs", `\n\t\r\n${chatBody(PRIVATE_PROVIDER_ID)}`],
    ["a byte-order mark", `\ufeff${chatBody(PRIVATE_PROVIDER_ID)}`],
    ["the hub id after a space", ` ${chatBody(PRIVATE)}`],
    // A server that reads the first of two keys runs the private model; JSON.parse reads the last.
    ["a second, public model key", chatBody(PRIVATE_PROVIDER_ID).replace(/}$/, ',"model":"public/model"}')],
    [
      "a key in another letter case",
      chatBody("public/model").replace(/}$/, `,"Model":"${PRIVATE_PROVIDER_ID}"}`),
    ],
  ])("a private model named after %s is refused, nothing forwarded", async (_how, body) => {
    const answer = await call("POST", "/router/together/v1/chat/completions", { body });
    expect([400, 404]).toContain(answer.status);
    expect(JSON.parse(answer.text)).toHaveProperty("error");
    expect(sim.requests).toEqual([]);
  });

  it("a private model named by its Replicate version alone is refused, nothing forwarded", async () => {
    for (const version of [PRIVATE_VERSION, `acme/private-images:${PRIVATE_VERSION}`]) {
      const answer = await call("POST", "/router/replicate/v1/predictions", {
        body: JSON.stringify({ version, input: { prompt: "a cat" } }),
      });
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.text)).toMatchObject({
        error: `Model ${version} does not exist on this hub.`,
      });
    }
    expect(sim.requests).toEqual([]);
  });

  it("a member still reaches the private model", async () => {
    const answer = await call("POST", "/router/together/v1/chat/completions", {
      token: tokens.raeRead,
      body: ` ${chatBody(PRIVATE_PROVIDER_ID)}`,
    });
    expect(answer.status).toBe(200);
  });
});

describe("a gated model needs the caller's access grant through the router", () => {
  const perProvider = () =>
    call("POST", "/router/together/v1/chat/completions", { body: chatBody(GATED_PROVIDER_ID) });
  const viaApi = () => call("POST", "/v1/chat/completions", { body: chatBody(`${GATED}:together`) });
  const byHubId = () => call("POST", "/router/together/v1/chat/completions", { body: chatBody(GATED) });

  it("refuses an outsider without a grant on every router surface", async () => {
    for (const attempt of [perProvider, viaApi, byHubId]) {
      const answer = await attempt();
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.text)).toMatchObject({ error: expect.stringContaining(GATED) });
    }
    expect(sim.requests).toEqual([]);
  });

  it("serves members at once, and an outsider once the owner grants access", async () => {
    expect(
      (
        await call("POST", "/v1/chat/completions", {
          token: tokens.raeRead,
          body: chatBody(`${GATED}:together`),
        })
      ).status,
    ).toBe(200);
    const otto = (await hub.store.accounts.users.byName("otto"))!;
    await hub.store.accounts.accessRequests.request({
      repoType: "model",
      repoId: GATED,
      userId: otto.id,
      status: "accepted",
      fields: {},
    });
    for (const attempt of [perProvider, viaApi]) expect((await attempt()).status).toBe(200);
  });
});
