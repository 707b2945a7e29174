import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { grantGatedModelsToEveryone } from "./__fixtures__/gated-grants.js";

/**
 * "Adding a provider touches its file and the registry, nothing else", shown by doing it: the inference
 * package's source is copied, a new provider file (Acme AI, an OpenAI-compatible chat API) is written into
 * it and one line registers it (plus its import). Every importer of `@modelhub/inference` in this file's
 * module graph (the hub, the snippets generator, through either entry) then gets the copy. Nothing else is edited, and the hub
 * routes the new provider, takes its mappings, lists it in /v1/models and offers snippets for it.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../../..");
// Under the repository's node_modules, so that the copy resolves its own dependencies (@modelhub/tasks...).
const COPY = join(ROOT, "node_modules", ".cache", `modelhub-add-provider-${process.pid}`);

const PROVIDER_FILE = `import type { ProviderConfig } from "./types.js";

/** Acme AI: an OpenAI-compatible chat API (a fixture provider). */
export const acmeAi: ProviderConfig = {
  id: "acme-ai",
  displayName: "Acme AI",
  baseUrl: "https://api.acme.example",
  apiKeyEnv: "ACME_API_KEY",
  tasks: { conversational: { protocol: "openai-chat" } },
};
`;

/** Copies the inference source once and adds Acme to the copy; both entries the hub imports load from it. */
let copied: Promise<string> | undefined;
function inferenceCopyWithAcme(): Promise<string> {
  copied ??= (async () => {
    const {
      cpSync: copy,
      readFileSync: read,
      writeFileSync: write,
      mkdirSync: mkdir,
    } = await import("node:fs");
    const { join: joinPath } = await import("node:path");
    mkdir(COPY, { recursive: true });
    copy(joinPath(ROOT, "packages/inference/src"), joinPath(COPY, "src"), { recursive: true });
    write(joinPath(COPY, "src/providers/acme-ai.ts"), PROVIDER_FILE);
    const registryFile = joinPath(COPY, "src/providers/index.ts");
    const registry = read(registryFile, "utf8");
    write(
      registryFile,
      registry
        .replace('import { baseten } from "./baseten.js";\n', 'import { acmeAi } from "./acme-ai.js";\n$&')
        .replace("  publicai,\n} as const", '  publicai,\n  "acme-ai": acmeAi,\n} as const'),
    );
    return joinPath(COPY, "src");
  })();
  return copied;
}

vi.mock("@modelhub/inference", async () => import(join(await inferenceCopyWithAcme(), "index.ts")));
// The snippets generator imports the light entry: it must see the same copy.
vi.mock(
  "@modelhub/inference/requests",
  async () => import(join(await inferenceCopyWithAcme(), "requests.ts")),
);

// Imported after the mock is declared (vi.mock is hoisted above imports anyway).
const inference = await import("@modelhub/inference");
const { getInferenceSnippets } = await import("@modelhub/snippets");
const { startProviderSim } = await import("@modelhub/provider-sim");
const { startHub } = await import("../start-hub.js");
const { makeTempDir } = await import("../__fixtures__/temp-dir.js");
const { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } = await import("../__fixtures__/seeded-app.js");
const { userToken } = await import("../__fixtures__/accounts.js");

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
let temp: ReturnType<typeof makeTempDir>;
let sim: Awaited<ReturnType<typeof startProviderSim>>;
let hub: Awaited<ReturnType<typeof startHub>>;
let token: string;

beforeAll(async () => {
  temp = makeTempDir();
  sim = await startProviderSim();
  hub = await startHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    // No real Acme here: its calls go to the simulator's OpenAI-compatible chat server.
    providerBaseUrls: Object.fromEntries(
      // The type is the real registry's; at run time the list is the copy's, Acme included.
      (inference.INFERENCE_PROVIDERS as readonly string[]).map((p) => [
        p,
        sim.providerUrl(p === "acme-ai" ? "together" : p),
      ]),
    ),
  });
  token = await userToken(hub.store, "acme-user", "read");
  // The catalogue's gated models need a grant for inference, as for their files.
  await grantGatedModelsToEveryone(hub.store);
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await sim?.close();
  temp?.remove();
  rmSync(COPY, { recursive: true, force: true });
});

describe("adding a provider is its file and one registry line", () => {
  it("changed nothing but the new file and the registry", () => {
    const original = readFileSync(join(ROOT, "packages/inference/src/providers/index.ts"), "utf8").split(
      "\n",
    );
    const edited = readFileSync(join(COPY, "src/providers/index.ts"), "utf8").split("\n");
    expect(edited.filter((line) => !original.includes(line))).toEqual([
      'import { acmeAi } from "./acme-ai.js";',
      '  "acme-ai": acmeAi,',
    ]);
  });

  it("derives the provider list, its label and its key variable", () => {
    expect(inference.INFERENCE_PROVIDERS).toContain("acme-ai");
    expect(inference.providerDisplayName("acme-ai")).toBe("Acme AI");
    expect(inference.getProviderConfig("acme-ai" as never).apiKeyEnv).toBe("ACME_API_KEY");
    expect(hub.routing.override).toContain("acme-ai");
  });

  it("takes its mappings, routes /v1 chat to it and lists it in /v1/models", async () => {
    const mapped = await fetch(`${hub.url}/api/admin/models/${MODEL}/mappings/acme-ai`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "live", providerId: "acme/llama-3.1-8b", task: "conversational" }),
    });
    expect(mapped.status).toBe(200);

    const chat = await fetch(`${hub.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ model: `${MODEL}:acme-ai`, messages: [{ role: "user", content: "Hi" }] }),
    });
    expect(chat.status).toBe(200);
    expect(chat.headers.get("x-inference-provider")).toBe("acme-ai");
    const sent = sim.requests.filter((r) => r.path === "/together/v1/chat/completions");
    expect(sent.at(-1)?.json).toMatchObject({ model: "acme/llama-3.1-8b" });

    const models = (await (await fetch(`${hub.url}/v1/models`)).json()) as {
      data: Array<{ id: string; providers: Array<{ provider: string }> }>;
    };
    const listed = models.data.find((model) => model.id === MODEL);
    expect(listed?.providers.map((p) => p.provider)).toContain("acme-ai");
  });

  it("gets snippets: the router's OpenAI-compatible forms", () => {
    const snippets = getInferenceSnippets(
      { id: MODEL, pipeline_tag: "text-generation", tags: ["conversational"] },
      undefined,
      "acme-ai" as never,
      "acme/llama-3.1-8b",
    );
    // huggingface_hub and huggingface.js are other people's clients: they know only the providers they
    // implement (client-support.ts), so a new provider gets the router's OpenAI-compatible forms.
    expect(snippets.map((s) => `${s.language}/${s.client}`)).toEqual([
      "python/requests",
      "python/openai",
      "js/openai",
      "js/fetch",
      "sh/curl",
    ]);
    expect(snippets.find((s) => s.client === "openai" && s.language === "python")?.content).toContain(
      `${MODEL}:acme-ai`,
    );
  });
});
