import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SeededApp, seededApp } from "../__fixtures__/seeded-app.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;

let hub: SeededApp;
beforeEach(async () => {
  hub = await seededApp();
});
afterEach(() => hub.cleanup());

async function getJson(path: string) {
  const response = await hub.app.request(path);
  return { response, body: (await response.json()) as Json };
}

describe("GET /api/models", () => {
  it("lists models in the public hub's list shape, most trending first by default", async () => {
    const { response, body } = await getJson("/api/models");
    expect(response.status).toBe(200);
    expect(body.length).toBe(await hub.store.models.count());
    expect(Object.keys(body[0]).sort()).toEqual(
      [
        "_id",
        "id",
        "modelId",
        "likes",
        "trendingScore",
        "private",
        "downloads",
        "tags",
        "pipeline_tag",
        "library_name",
        "createdAt",
      ].sort(),
    );
    const scores = body.map((model: Json) => model.trendingScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("filters by task, library, tag and provider, and searches ids case-insensitively", async () => {
    const byTask = (await getJson("/api/models?pipeline_tag=text-to-image")).body;
    expect(byTask.map((m: Json) => m.id).sort()).toEqual([
      "black-forest-labs/FLUX.1-dev",
      "stabilityai/stable-diffusion-xl-base-1.0",
    ]);
    const byLibrary = (await getJson("/api/models?library=sentence-transformers")).body;
    expect(byLibrary.every((m: Json) => m.library_name === "sentence-transformers")).toBe(true);
    expect(byLibrary.length).toBe(2);
    const byTags = (await getJson("/api/models?filter=conversational&filter=gguf")).body;
    expect(byTags.map((m: Json) => m.id)).toEqual(["bartowski/Llama-3.2-3B-Instruct-GGUF"]);
    const byProvider = (await getJson("/api/models?inference_provider=cerebras")).body;
    expect(byProvider.map((m: Json) => m.id)).toEqual(["meta-llama/Llama-3.1-8B-Instruct"]);
    const search = (await getJson("/api/models?search=LLAMA-3")).body;
    expect(search.map((m: Json) => m.id).sort()).toEqual([
      "bartowski/Llama-3.2-3B-Instruct-GGUF",
      "meta-llama/Llama-3.1-8B-Instruct",
    ]);
  });

  it("says in X-Total-Count how many models match the filters, whatever the page size", async () => {
    const all = await getJson("/api/models?limit=2");
    expect(all.body.length).toBe(2);
    expect(all.response.headers.get("x-total-count")).toBe(String(await hub.store.models.count()));
    const images = await getJson("/api/models?pipeline_tag=text-to-image&limit=1");
    expect(images.response.headers.get("x-total-count")).toBe("2");
    const none = await getJson("/api/models?search=no-such-model-anywhere");
    expect(none.response.headers.get("x-total-count")).toBe("0");
  });

  it("only counts live mappings for the provider filter", async () => {
    // Qwen2.5-VL is staging on nebius: not served there yet.
    const nebius = (await getJson("/api/models?inference_provider=nebius")).body.map((m: Json) => m.id);
    expect(nebius).not.toContain("Qwen/Qwen2.5-VL-7B-Instruct");
    expect(nebius).toContain("deepseek-ai/DeepSeek-R1");
  });

  it("sorts by each key in both directions", async () => {
    for (const [sort, field] of [
      ["downloads", "downloads"],
      ["likes", "likes"],
      ["createdAt", "createdAt"],
    ] as const) {
      const desc = (await getJson(`/api/models?sort=${sort}`)).body.map((m: Json) => m[field]);
      expect(desc).toEqual([...desc].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
      const asc = (await getJson(`/api/models?sort=${sort}&direction=1`)).body.map((m: Json) => m[field]);
      expect(asc).toEqual([...desc].reverse());
    }
  });

  it("sorts by every public sort in both directions, ties by id, and pages through each", async () => {
    const idOrder = (ids: string[]) => [...ids].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    for (const sort of ["id", "likes30d", "trendingScore", "lastModified", "num_parameters", "mainSize"]) {
      const desc = (await getJson(`/api/models?sort=${sort}&direction=-1`)).body.map((m: Json) => m.id);
      const asc = (await getJson(`/api/models?sort=${sort}&direction=1`)).body.map((m: Json) => m.id);
      expect(desc.length, sort).toBe(await hub.store.models.count());
      expect(new Set(asc), sort).toEqual(new Set(desc));
      const paged: string[] = [];
      let next: string | null = `/api/models?sort=${sort}&direction=1&limit=6`;
      while (next) {
        const response = await hub.app.request(next);
        paged.push(...((await response.json()) as Json[]).map((m) => m.id));
        next = /^<([^>]+)>/.exec(response.headers.get("Link") ?? "")?.[1] ?? null;
      }
      expect(paged, sort).toEqual(asc);
    }
    const byId = (await getJson("/api/models?sort=id&direction=1")).body.map((m: Json) => m.id);
    expect(byId).toEqual(idOrder(byId));
    // No model of the fixture lists file sizes: mainSize ties everywhere and falls back to the id.
    const bySize = (await getJson("/api/models?sort=mainSize")).body.map((m: Json) => m.id);
    expect(bySize).toEqual(idOrder(bySize));
    const byCount = (await getJson("/api/models?sort=num_parameters&expand[]=safetensors,gguf")).body;
    const counts = byCount.map((m: Json) => m.safetensors?.total ?? m.gguf?.total ?? 0);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("accepts booleans as older clients spell them", async () => {
    for (const spelling of ["true", "True", "TRUE", "1"]) {
      const [model] = (await getJson(`/api/models?full=${spelling}&config=${spelling}&limit=1`)).body;
      expect(Object.keys(model), spelling).toEqual(expect.arrayContaining(["siblings", "config", "gated"]));
    }
    const [plain] = (await getJson("/api/models?full=False&cardData=false&limit=1")).body;
    expect(plain.siblings).toBeUndefined();
  });

  it("caps a page at 1000 models and never 400s a large limit", async () => {
    const { response, body } = await getJson("/api/models?limit=5000");
    expect(response.status).toBe(200);
    expect(body.length).toBe(await hub.store.models.count());
  });

  it("matches nothing for a task it does not know, rather than everything", async () => {
    const { response, body } = await getJson("/api/models?pipeline_tag=not-a-task");
    expect(response.status).toBe(200);
    expect(body).toEqual([]);
  });

  it("walks every model exactly once through the Link header's cursors", async () => {
    const seen: string[] = [];
    let next: string | undefined = "/api/models?sort=likes&limit=3&expand[]=likes";
    let pages = 0;
    while (next) {
      const response = await hub.app.request(next);
      expect(response.status).toBe(200);
      const page = (await response.json()) as Array<{ id: string; likes: number }>;
      seen.push(...page.map((m) => m.id));
      const link = response.headers.get("Link");
      next = link
        ? new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1]!).pathname +
          new URL(/^<([^>]+)>/.exec(link)![1]!).search
        : undefined;
      pages++;
    }
    expect(pages).toBe(Math.ceil((await hub.store.models.count()) / 3));
    expect(new Set(seen).size).toBe(await hub.store.models.count());
  });

  it("returns only the expanded fields, mappings keyed by provider", async () => {
    const { body } = await getJson(
      "/api/models?search=whisper&expand[]=inferenceProviderMapping&expand[]=pipeline_tag",
    );
    expect(body).toEqual([
      {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        id: "openai/whisper-large-v3",
        modelId: "openai/whisper-large-v3",
        pipeline_tag: "automatic-speech-recognition",
        inferenceProviderMapping: {
          "fal-ai": { status: "live", providerId: "fal-ai/whisper", task: "automatic-speech-recognition" },
          "hf-inference": {
            status: "live",
            providerId: "openai/whisper-large-v3",
            task: "automatic-speech-recognition",
          },
        },
      },
    ]);
  });

  it("rejects bad parameters with a 400 JSON error", async () => {
    for (const query of [
      "sort=price",
      "direction=up",
      "limit=0",
      "limit=-5",
      "limit=abc",
      "expand[]=password",
      "expand[]=childrenModelCount",
      "full=maybe",
      "gated=yes",
      "num_parameters=6B",
      "inference=cold",
      "cursor=bm90LWEtY3Vyc29y",
      "cursor=%ZZ",
    ]) {
      const { response, body } = await getJson(`/api/models?${query}`);
      expect(response.status, query).toBe(400);
      expect(body.code, query).toBe("invalid_input");
      expect(response.headers.get("Content-Type")).toContain("application/json");
    }
  });

  it("treats SQL-looking search strings as plain text", async () => {
    for (const search of ["' OR 1=1 --", "%", "_", "x'); DROP TABLE models; --"]) {
      const { response, body } = await getJson(`/api/models?search=${encodeURIComponent(search)}`);
      expect(response.status).toBe(200);
      expect(body).toEqual([]);
    }
    expect(await hub.store.models.count()).toBe(20);
  });
});

describe("GET /api/models/{owner}/{name}", () => {
  it("returns the full record without mappings unless expanded", async () => {
    const { response, body } = await getJson("/api/models/meta-llama/Llama-3.1-8B-Instruct");
    expect(response.status).toBe(200);
    expect(body.id).toBe("meta-llama/Llama-3.1-8B-Instruct");
    expect(body.author).toBe("meta-llama");
    expect(body.config.tokenizer_config.chat_template).toContain("<|start_header_id|>");
    expect(body.transformersInfo.auto_model).toBe("AutoModelForCausalLM");
    expect(body.tags).toContain("conversational");
    expect(body.inferenceProviderMapping).toBeUndefined();
    expect(body.cardText).toContain("Llama 3.1");
  });

  it("expands the fields only one model's page has: baseModels, childrenModelCount", async () => {
    for (const name of ["bert-ner-a", "bert-ner-b"]) {
      await hub.store.models.upsert({
        id: `someone/${name}`,
        tags: [],
        cardData: { base_model: "google-bert/BERT-base-uncased" },
      });
    }
    const base = (await getJson("/api/models/google-bert/bert-base-uncased?expand[]=childrenModelCount"))
      .body;
    expect(base.childrenModelCount).toBe(2);
    const child = (await getJson("/api/models/deepset/roberta-base-squad2?expand[]=baseModels")).body;
    expect(child.baseModels).toEqual({ relation: "finetune", models: [{ id: "FacebookAI/roberta-base" }] });
    const gguf = (await getJson("/api/models/bartowski/Llama-3.2-3B-Instruct-GGUF?expand[]=baseModels")).body;
    expect(gguf.baseModels.relation).toBe("quantized");
  });

  it("finds a model whatever the case of its id, and answers with the canonical id", async () => {
    const { body } = await getJson("/api/models/META-LLAMA/llama-3.1-8b-instruct?expand[]=pipeline_tag");
    expect(body.id).toBe("meta-llama/Llama-3.1-8B-Instruct");
  });

  it("includes mappings with full=true and with expand[]=inferenceProviderMapping", async () => {
    const full = (await getJson("/api/models/Wan-AI/Wan2.1-T2V-14B?full=true")).body;
    expect(full.inferenceProviderMapping.novita).toEqual({
      status: "staging",
      providerId: "wan-t2v",
      task: "text-to-video",
    });
    expect(full.inference).toBe("warm");
    const expanded = (await getJson("/api/models/Wan-AI/Wan2.1-T2V-14B?expand[]=inferenceProviderMapping"))
      .body;
    expect(Object.keys(expanded).sort()).toEqual(["_id", "id", "inferenceProviderMapping", "modelId"]);
  });

  it("answers a missing model as the public hub does (401 RepoNotFound when anonymous)", async () => {
    const { response, body } = await getJson("/api/models/nobody/nothing");
    expect(response.status).toBe(401);
    expect(response.headers.get("X-Error-Code")).toBe("RepoNotFound");
    expect(body).toMatchObject({
      code: "RepoNotFound",
      status: 401,
      error: "Repository not found: nobody/nothing.",
    });
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("rejects malformed ids, encoded slashes and dot-dot segments with 400", async () => {
    for (const path of [
      "/api/models/owner/..%2F..%2Fetc",
      "/api/models/owner%2Fname/x",
      "/api/models/..%2E/name",
      "/api/models/-owner/name",
      "/api/models/owner/name..",
      "/api/models/own%00er/name",
      `/api/models/${"a".repeat(97)}/name`,
      "/api/models/owner/na%27me%3B%20DROP%20TABLE%20models",
    ]) {
      const { response, body } = await getJson(path);
      expect(response.status, path).toBe(400);
      expect(body.code, path).toBe("invalid_input");
    }
  });
});

describe("unknown routes", () => {
  it("answer 404 JSON, for the API and for anything else", async () => {
    for (const path of ["/api/nothing", "/router", "/something/else", "/api/models/a/b/c/d"]) {
      const response = await hub.app.request(path);
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as Json).code).toBe("not_found");
    }
  });
});
