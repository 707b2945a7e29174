import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { seededApp } from "../__fixtures__/seeded-app.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;

let hub: ReturnType<typeof seededApp>;
beforeEach(() => {
  hub = seededApp();
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
    expect(body.length).toBe(hub.store.models.count());
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
    expect(pages).toBe(Math.ceil(hub.store.models.count() / 3));
    expect(new Set(seen).size).toBe(hub.store.models.count());
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
      "limit=100000",
      "limit=abc",
      "pipeline_tag=not-a-task",
      "expand[]=password",
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
    expect(hub.store.models.count()).toBe(20);
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

  it("answers 404 JSON for a model that does not exist", async () => {
    const { response, body } = await getJson("/api/models/nobody/nothing");
    expect(response.status).toBe(404);
    expect(body).toMatchObject({ code: "not_found", status: 404, error: "Model nobody/nothing not found." });
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
