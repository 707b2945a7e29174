import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { type RunningHub, startHub } from "../start-hub.js";

/**
 * A hosted provider (`cerebras`, compromised or misconfigured) that answers with redirects. A client follows
 * one with the caller's hub token and the call's body (openai's client does for 307/308; fetch does, and keeps
 * the token on the same origin): passed on as it came, a relative `Location`, or one naming the hub, sends the
 * caller into the hub wherever the provider chose. Its base URL has a path, as an OpenAI-compatible API's
 * (`/v1`) does, so that a `Location` leaving it by dot segments can be tried. `together` (provider-sim) serves
 * the model too, after it in the default order: the failover.
 */
const KEY = "sk-RedirectKey_7hQ2mL9xV4bR8tN1wC6yP3";
const MODEL = "acme/redirect-chat";

let stop: (() => Promise<void>) | undefined;
let hub: RunningHub;
let provider: Server;
let sim: ProviderSim;
let base: string;
let token: string;

/** Where the provider's redirect leads, by the call's first message. */
function locationFor(where: string): string {
  switch (where) {
    case "relative":
      return "/api/repos/create";
    case "hub":
      return `${hub.url}/api/repos/create`;
    case "dots":
      return `${base}/../api/repos/create`;
    case "elsewhere":
      return "https://elsewhere.example/v1/chat/completions";
    default:
      // Its own API: a job's status on its base URL, with the key in the query (which must not reach the caller).
      return `${base}/v1/jobs/42?token=${KEY}`;
  }
}

async function redirect(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString()) as { messages: { content: string }[] };
  response.writeHead(307, { location: locationFor(body.messages[0]!.content) }).end();
}

beforeAll(async () => {
  provider = createServer((request, response) => {
    redirect(request, response).catch(() => response.destroy());
  });
  provider.on("error", () => {});
  provider.listen(0, "127.0.0.1");
  await once(provider, "listening");
  base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/base`;
  const temp = makeTempDir();
  sim = await startProviderSim();
  hub = await startHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    providerBaseUrls: { cerebras: base, together: sim.providerUrl("together") },
    providerKeys: { cerebras: KEY },
  });
  stop = async () => {
    await hub.close();
    await sim.close();
    temp.remove();
  };
  token = (await seedAccounts(hub.store)).tokens.ottoWrite;
  const model = (await hub.store.models.get("meta-llama/Llama-3.1-8B-Instruct"))!;
  await hub.store.models.upsert({ ...model, id: MODEL, private: false, gated: false });
  await hub.store.mappings.set(MODEL, "cerebras", {
    status: "live",
    providerId: "redirect-chat",
    task: "conversational",
  });
  await hub.store.mappings.set(MODEL, "together", {
    status: "live",
    providerId: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
    task: "conversational",
  });
}, 30_000);

afterAll(async () => {
  await stop?.();
  await new Promise((resolve) => provider?.close(resolve));
});

/** The call as a client that does not follow redirects sees it: what it would follow, if anything. */
async function chat(path: string, model: string, where: string) {
  const response = await fetch(`${hub.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: where }], max_tokens: 8 }),
  });
  const text = await response.text();
  return { status: response.status, location: response.headers.get("location"), text };
}

describe("a hosted provider's redirect on the OpenAI-compatible API", () => {
  it.each(["relative", "hub", "dots", "elsewhere", "own"])(
    "is not passed on (%s): a 502 saying the provider redirected",
    async (where) => {
      const answer = await chat("/v1/chat/completions", `${MODEL}:cerebras`, where);
      expect([answer.status, answer.location]).toEqual([502, null]);
      expect(JSON.parse(answer.text)).toMatchObject({
        error: expect.stringMatching(
          /cerebras answered with a redirect \(307\), which the router does not follow/,
        ),
      });
      expect(answer.text).not.toContain(KEY);
    },
  );

  it("is tried elsewhere when another provider serves the model", async () => {
    const response = await fetch(`${hub.url}/v1/chat/completions`, {
      method: "POST",
      redirect: "manual",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        model: MODEL,
        messages: [{ role: "user", content: "relative" }],
        max_tokens: 8,
      }),
    });
    expect([response.status, response.headers.get("x-inference-provider")]).toEqual([200, "together"]);
    expect(((await response.json()) as { choices: unknown[] }).choices).toHaveLength(1);
  });
});

describe("a hosted provider's redirect through the passthrough", () => {
  it.each(["relative", "hub", "dots", "elsewhere"])(
    "leading outside its base URL (%s) is a 502 saying so",
    async (where) => {
      const answer = await chat("/router/cerebras/v1/chat/completions", "redirect-chat", where);
      expect([answer.status, answer.location]).toEqual([502, null]);
      expect(JSON.parse(answer.text)).toMatchObject({
        error: expect.stringMatching(/cerebras redirected elsewhere than its own API \(307\)/),
      });
    },
  );

  it("within its base URL goes on, moved onto the router's path for it, without the key", async () => {
    const answer = await chat("/router/cerebras/v1/chat/completions", "redirect-chat", "own");
    expect([answer.status, answer.location]).toEqual([
      307,
      `${hub.url}/router/cerebras/v1/jobs/42?token=[redacted]`,
    ]);
  });
});
