import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import { type AdminOutput, runAdminCommand } from "../cli/admin-command.js";
import type { RunningHub } from "../start-hub.js";
import { INFERENCE_TOKEN_FOR_GATED_MODELS } from "./__fixtures__/gated-grants.js";
import { createSecretBox, loadSecretsKey } from "./own-provider-secrets.js";
import { OWN_PROVIDERS_TTL_MS } from "./own-providers-registry.js";
import type { OwnProviderView } from "./own-providers-service.js";

/**
 * Own providers as an administrator sets them up: two OpenAI-compatible servers (provider-sim speaking plain
 * OpenAI under `/together/v1`, each accepting only its own key) added with the admin CLI while the hub runs,
 * then called through `/v1` by the npm and Python `openai` clients; health checks, failover between them and
 * to hosted providers (the hub's in-process simulator), usage, and what non-administrators may not do.
 */
const CHAT = "Qwen/Qwen2.5-7B-Instruct"; // also served by hosted providers
const OWN_ONLY = "bartowski/Llama-3.2-3B-Instruct-GGUF"; // served by the own servers alone
const EMBED = "BAAI/bge-m3";
const KEY_A = `sk-own-a-${"a1".repeat(12)}`;
const KEY_B = `sk-own-b-${"b2".repeat(12)}`;
const PYTHON = join(fileURLToPath(new URL("../../../../", import.meta.url)), ".venv/bin/python");

let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;
let simA: ProviderSim;
let simB: ProviderSim;
let token: string;
let client: OpenAI;
const cliOutputs: string[] = [];

/** The admin CLI's command, run as `npm run admin` runs it (against the running hub's database). */
async function admin(args: string[], stdin = ""): Promise<unknown> {
  const output: AdminOutput = await runAdminCommand(args, hub.store, INFERENCE_PROVIDERS, {
    readStdin: async () => stdin,
    ownProviderSecrets: () => createSecretBox(loadSecretsKey(undefined, join(temp.dir, "data"))),
  });
  const text = JSON.stringify(output);
  cliOutputs.push(text);
  return "json" in output ? output.json : output.text;
}

async function adminApi(method: string, path: string, body?: unknown, bearer = ADMIN_TOKEN) {
  const response = await fetch(`${hub.url}/api/admin/own-providers${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

/** Health checked now (rather than at the next period), as the admin page's button does. */
async function checkNow(): Promise<Record<string, OwnProviderView>> {
  const { status, json } = await adminApi("POST", "/check");
  expect(status).toBe(200);
  return Object.fromEntries((json as OwnProviderView[]).map((provider) => [provider.name, provider]));
}

const messages = [{ role: "user" as const, content: "Say hello" }];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  temp = makeTempDir();
  // Server A is slow to answer (its headers come 600 ms late): `:fastest` prefers B once both are measured.
  simA = await startProviderSim({ providerKeys: { together: [KEY_A] }, latencyMs: 600 });
  simB = await startProviderSim({ providerKeys: { together: [KEY_B] } });
  process.env.OWN_PROVIDER_KEY_TEST_B = KEY_B;
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    // Checks run when a test asks (POST /check): no timing in the assertions.
    ownProvidersHealthIntervalMs: 3_600_000,
  });
  token = (
    await accountsService(hub.store.accounts).createToken(undefined, {
      name: "own-providers",
      ...INFERENCE_TOKEN_FOR_GATED_MODELS,
    })
  ).token;
  client = new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: token, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await simA?.close().catch(() => {});
  await simB?.close().catch(() => {});
  temp?.remove();
});

describe("own providers added through the admin CLI, without a restart", () => {
  it("adds two servers, one key sealed from standard input, one named by variable, and maps models", async () => {
    const added = (await admin(
      [
        "providers:add",
        "gpu-a",
        "--base-url",
        `${simA.url}/together/v1`,
        "--api-key-stdin",
        "--health-path",
        "/__sim/health",
      ],
      `${KEY_A}\n`,
    )) as OwnProviderView & { created: boolean };
    expect(added).toMatchObject({
      name: "gpu-a",
      created: true,
      apiKey: `****${KEY_A.slice(-4)}`,
      apiKeyEnv: null,
    });
    await admin([
      "providers:add",
      "gpu-b",
      "--base-url",
      `${simB.url}/together/v1`,
      "--api-key-env",
      "OWN_PROVIDER_KEY_TEST_B",
      "--health-path",
      "/__sim/health",
    ]);
    for (const [server, name] of [
      ["gpu-a", "qwen-local-a"],
      ["gpu-b", "qwen-local-b"],
    ]) {
      await admin(["providers:map", server!, "--model", CHAT, "--served-name", name!]);
      await admin(["providers:map", server!, "--model", OWN_ONLY, "--served-name", `llama-${server}`]);
    }
    await admin([
      "providers:map",
      "gpu-a",
      "--model",
      EMBED,
      "--served-name",
      "bge-local",
      "--kind",
      "embeddings",
    ]);
    const listed = (await admin(["providers:list"])) as OwnProviderView[];
    expect(listed.map((provider) => [provider.name, provider.health.status, provider.models.length])).toEqual(
      [
        ["gpu-a", "up", 3],
        ["gpu-b", "up", 2],
      ],
    );
    // The key is nowhere in what the CLI printed, nor in the database (sealed: only a masked hint beside it).
    expect(cliOutputs.join("\n")).not.toContain(KEY_A);
    expect(cliOutputs.join("\n")).not.toContain(KEY_B);
    const rows = await hub.store.db.all<Record<string, unknown>>("SELECT * FROM own_providers");
    expect(JSON.stringify(rows)).not.toContain(KEY_A);
    expect(rows.find((row) => row.name === "gpu-a")?.api_key_sealed).toMatch(/^v1\./);
    // The running hub sees the change within its short cache time.
    await wait(OWN_PROVIDERS_TTL_MS + 50);
  });

  it("refuses names that already mean something, and variables that are not meant for keys", async () => {
    await expect(admin(["providers:add", "together", "--base-url", "http://127.0.0.1:9/v1"])).rejects.toThrow(
      /already means something/,
    );
    await expect(admin(["providers:add", "fastest", "--base-url", "http://127.0.0.1:9/v1"])).rejects.toThrow(
      /already means something/,
    );
    await expect(
      admin([
        "providers:add",
        "gpu-x",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--api-key-env",
        "ADMIN_TOKEN",
      ]),
    ).rejects.toThrow(/OWN_PROVIDER_KEY_/);
  });
});

describe("the npm openai client through /v1", () => {
  it("chats with owner/name: the first own server answers, with its own model name and key", async () => {
    simA.clearRequests();
    const { data, response } = await client.chat.completions.create({ model: CHAT, messages }).withResponse();
    expect(data.choices[0]?.message.content).toEqual(expect.any(String));
    expect(response.headers.get("x-inference-provider")).toBe("gpu-a");
    expect(simA.requests.at(-1)?.json).toMatchObject({ model: "qwen-local-a" });
  });

  it("chats with owner/name:own-name, and streams", async () => {
    const { response } = await client.chat.completions
      .create({ model: `${CHAT}:gpu-b`, messages })
      .withResponse();
    expect(response.headers.get("x-inference-provider")).toBe("gpu-b");
    expect(simB.requests.at(-1)?.json).toMatchObject({ model: "qwen-local-b" });
    let text = "";
    for await (const chunk of await client.chat.completions.create({
      model: `${OWN_ONLY}:gpu-b`,
      messages,
      stream: true,
    })) {
      text += chunk.choices[0]?.delta?.content ?? "";
    }
    expect(text.length).toBeGreaterThan(0);
  });

  it("chats with :fastest: the server measured faster first", async () => {
    const { response } = await client.chat.completions
      .create({ model: `${CHAT}:fastest`, messages })
      .withResponse();
    expect(response.headers.get("x-inference-provider")).toBe("gpu-b");
  });

  it("completes text and embeds through the own servers", async () => {
    const completion = await client.completions.create({ model: OWN_ONLY, prompt: "Once upon a time" });
    expect(completion.choices[0]?.text).toEqual(expect.any(String));
    expect(simA.requests.at(-1)?.json).toMatchObject({ model: "llama-gpu-a", prompt: "Once upon a time" });
    const embedded = await client.embeddings.create({ model: EMBED, input: "hello" }).withResponse();
    expect(embedded.response.headers.get("x-inference-provider")).toBe("gpu-a");
    expect(embedded.data.data[0]?.embedding.length).toBeGreaterThan(0);
  });

  it("lists models the own servers alone serve", async () => {
    const models = await client.models.list();
    const own = models.data.find((model) => model.id === OWN_ONLY) as unknown as {
      providers: { provider: string }[];
    };
    expect(own.providers.map((entry) => entry.provider)).toEqual(["gpu-a", "gpu-b"]);
  });
});

describe.skipIf(!existsSync(PYTHON))("the Python openai client through /v1", () => {
  it("chats with owner/name, :own-name and :fastest", async () => {
    const script = `
import os, json
from openai import OpenAI
client = OpenAI(base_url=os.environ["HUB"] + "/v1", api_key=os.environ["TOKEN"], max_retries=0)
out = {}
for model in ["${CHAT}", "${CHAT}:gpu-b", "${CHAT}:fastest", "${OWN_ONLY}"]:
    raw = client.chat.completions.with_raw_response.create(model=model, messages=[{"role": "user", "content": "Hi"}])
    out[model] = [raw.parse().choices[0].message.content, raw.headers.get("x-inference-provider")]
print(json.dumps(out))
`;
    const { stdout } = await promisify(execFile)(PYTHON, ["-c", script], {
      env: { ...process.env, HUB: hub.url, TOKEN: token },
    });
    const out = JSON.parse(stdout) as Record<string, [string, string]>;
    expect(Object.values(out).every(([content]) => content.length > 0)).toBe(true);
    expect(Object.fromEntries(Object.entries(out).map(([model, [, provider]]) => [model, provider]))).toEqual(
      {
        [CHAT]: "gpu-a",
        [`${CHAT}:gpu-b`]: "gpu-b",
        [`${CHAT}:fastest`]: "gpu-b",
        [OWN_ONLY]: "gpu-a",
      },
    );
  }, 120_000);
});

describe("administration: health, keys, usage", () => {
  it("shows each server's health and its key masked, never the key", async () => {
    await checkNow();
    const { status, text, json } = await adminApi("GET", "");
    expect(status).toBe(200);
    expect(text).not.toContain(KEY_A);
    expect(text).not.toContain(KEY_B);
    expect(
      (json as OwnProviderView[]).map((provider) => [provider.name, provider.health.status, provider.apiKey]),
    ).toEqual([
      ["gpu-a", "up", `****${KEY_A.slice(-4)}`],
      ["gpu-b", "up", null],
    ]);
  });

  it("records usage per user for own servers as for hosted ones", async () => {
    const rows = await hub.store.usage.summary();
    const own = rows.filter((row) => row.provider === "gpu-a" || row.provider === "gpu-b");
    expect(new Set(own.map((row) => `${row.provider} ${row.model}`))).toEqual(
      new Set([`gpu-a ${CHAT}`, `gpu-a ${OWN_ONLY}`, `gpu-a ${EMBED}`, `gpu-b ${CHAT}`, `gpu-b ${OWN_ONLY}`]),
    );
    // Under the caller's token, hence its user (the per-user and per-organization reports read the same rows).
    const [tokenRow] = await hub.store.db.all<{ id: number }>(
      "SELECT id FROM tokens ORDER BY id DESC LIMIT 1",
    );
    expect(new Set(own.map((row) => row.tokenId))).toEqual(new Set([tokenRow?.id]));
  });

  it("skips a server failing its health check until it recovers", async () => {
    // The same server, checked on a path it does not serve: down; the key is kept when none is given.
    await admin([
      "providers:add",
      "gpu-a",
      "--base-url",
      `${simA.url}/together/v1`,
      "--health-path",
      "/nothing-here",
    ]);
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    expect((await checkNow())["gpu-a"]?.health).toMatchObject({
      status: "down",
      error: expect.stringContaining("404"),
    });
    const skipped = await client.chat.completions.create({ model: CHAT, messages }).withResponse();
    expect(skipped.response.headers.get("x-inference-provider")).toBe("gpu-b");
    await expect(client.chat.completions.create({ model: `${CHAT}:gpu-a`, messages })).rejects.toMatchObject({
      status: 503,
    });
    await admin([
      "providers:add",
      "gpu-a",
      "--base-url",
      `${simA.url}/together/v1`,
      "--health-path",
      "/__sim/health",
    ]);
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    expect((await checkNow())["gpu-a"]?.health.status).toBe("up");
    const recovered = await client.chat.completions.create({ model: CHAT, messages }).withResponse();
    expect(recovered.response.headers.get("x-inference-provider")).toBe("gpu-a");
  });

  it("fails over when a server stops mid-way: to the other own server, then to hosted providers", async () => {
    await simA.close();
    const first = await client.chat.completions.create({ model: CHAT, messages }).withResponse();
    expect(first.response.headers.get("x-inference-provider")).toBe("gpu-b");
    // The unreachable server is skipped from then on, and its health says so.
    expect((await adminApi("GET", "/gpu-a")).json.health.status).toBe("down");
    await simB.close();
    const hosted = await client.chat.completions.create({ model: CHAT, messages }).withResponse();
    expect(hosted.response.headers.get("x-inference-provider")).not.toMatch(/^gpu-/);
    // A model only the own servers serve has nowhere to go.
    await expect(client.chat.completions.create({ model: OWN_ONLY, messages })).rejects.toMatchObject({
      status: 503,
    });
    const health = await checkNow();
    expect([health["gpu-a"]?.health.status, health["gpu-b"]?.health.status]).toEqual(["down", "down"]);
  });

  it("keeps a model's calls off hosted providers when its own server says so", async () => {
    await admin([
      "providers:add",
      "gpu-b",
      "--base-url",
      `${simB.url}/together/v1`,
      "--health-path",
      "/__sim/health",
      "--no-hosted-failover",
    ]);
    await wait(OWN_PROVIDERS_TTL_MS + 50);
    await checkNow();
    await expect(client.chat.completions.create({ model: CHAT, messages })).rejects.toMatchObject({
      status: 503,
    });
    // Naming a hosted provider is the caller's explicit choice.
    const named = await client.chat.completions
      .create({ model: `${CHAT}:together`, messages })
      .withResponse();
    expect(named.response.headers.get("x-inference-provider")).toBe("together");
  });
});

describe("what non-administrators may not do", () => {
  it("refuses a user's token to list, read, add or map own providers, and writes nothing", async () => {
    const accounts = accountsService(hub.store.accounts);
    await accounts.createUser({ name: "mallory", password: "a password long enough" });
    const mallory = (await accounts.createToken("mallory", { name: "m", role: "write" })).token;
    const before = JSON.stringify(await hub.store.db.all("SELECT * FROM own_providers ORDER BY name"));
    for (const [method, path, body] of [
      ["GET", "", undefined],
      ["GET", "/gpu-a", undefined],
      ["POST", "/check", undefined],
      ["PUT", "/gpu-a", { baseUrl: "http://attacker.example/v1" }],
      ["PUT", "/evil", { baseUrl: "http://attacker.example/v1", apiKey: "x" }],
      ["PUT", "/gpu-a/models", { model: CHAT, servedName: "x" }],
      ["DELETE", "/gpu-a", undefined],
    ] as const) {
      for (const bearer of [mallory, token]) {
        const answer = await adminApi(method, path, body, bearer);
        expect([method, path, answer.status]).toEqual([method, path, 403]);
        expect(answer.text).not.toContain("sk-own");
      }
    }
    expect(JSON.stringify(await hub.store.db.all("SELECT * FROM own_providers ORDER BY name"))).toBe(before);
  });
});
