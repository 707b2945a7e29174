import { PIPELINE_TYPES } from "@modelhub/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededApp, seededApp } from "../__fixtures__/seeded-app.js";

let hub: SeededApp;
beforeAll(async () => {
  hub = await seededApp();
});
afterAll(() => hub.cleanup());

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below.
async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await hub.app.request(`http://hub.test${path}`);
  return { status: response.status, body: await response.json() };
}

describe("GET /api/tasks", () => {
  it("lists every pipeline task keyed by id, with its data and model count", async () => {
    const { status, body } = await get("/api/tasks");
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(PIPELINE_TYPES);
    expect(body["text-generation"]).toMatchObject({
      id: "text-generation",
      label: "Text Generation",
      modality: "nlp",
      modelCount: 4,
      hideInModels: false,
    });
    expect(body["text-generation"].models.length).toBeGreaterThan(0);
    expect(body["text-classification"].subtasks.length).toBeGreaterThan(0);
  });
});

describe("GET /api/libraries", () => {
  it("lists the catalogue's libraries, the ones in use first", async () => {
    const { body } = await get("/api/libraries");
    expect(body[0]).toMatchObject({ id: "transformers", modelCount: 13, filter: true });
    const diffusers = body.find((library: { id: string }) => library.id === "diffusers");
    expect(diffusers).toMatchObject({
      prettyLabel: expect.any(String),
      repoUrl: expect.stringMatching(/^https:/),
    });
    expect(diffusers.modelCount).toBe(2);
    expect(body.length).toBeGreaterThan(60);
  });
});

describe("GET /api/models/{id}/library-snippets", () => {
  it("returns the library's loading code", async () => {
    const { body } = await get("/api/models/meta-llama/Llama-3.1-8B-Instruct/library-snippets");
    expect(body.library).toBe("transformers");
    expect(body.snippets.length).toBeGreaterThan(0);
    expect(body.snippets[0].content).toContain("meta-llama/Llama-3.1-8B-Instruct");
    expect(body.localApps.map((app: { key: string }) => app.key)).toContain("vllm");
  });

  it("points the loading code and the local apps at this hub, not huggingface.co", async () => {
    const { body } = await get("/api/models/meta-llama/Llama-3.1-8B-Instruct/library-snippets");
    for (const snippet of body.snippets) {
      expect(snippet.content).toContain('os.environ["HF_ENDPOINT"] = "http://hub.test"');
    }
    const vllm = body.localApps.find((app: { key: string }) => app.key === "vllm");
    expect(JSON.stringify(vllm.snippets)).toContain(
      "HF_ENDPOINT=http://hub.test vllm serve meta-llama/Llama-3.1-8B-Instruct",
    );
  });

  it("offers local apps for a GGUF repository, with a chosen quantization", async () => {
    const id = "bartowski/Llama-3.2-3B-Instruct-GGUF";
    const { body } = await get(`/api/models/${id}/library-snippets?quant=Llama-3.2-3B-Instruct-Q8_0.gguf`);
    expect(body.ggufQuantizations.length).toBeGreaterThan(3);
    const llamaCpp = body.localApps.find((app: { key: string }) => app.key === "llama.cpp");
    expect(JSON.stringify(llamaCpp.snippets)).toContain("Q8_0");
  });

  it("refuses a quantization that is not one of the model's files", async () => {
    const { status, body } = await get(
      "/api/models/bartowski/Llama-3.2-3B-Instruct-GGUF/library-snippets?quant=..%2F..%2Fetc%2Fpasswd",
    );
    expect(status).toBe(400);
    expect(body.code).toBe("invalid_input");
  });
});

describe("widget routes mounted on the hub", () => {
  it("ranks the hub's own models for the widget", async () => {
    const { status, body } = await get("/api/widget/top-products?limit=3&owner=facebook");
    expect(status).toBe(200);
    expect(body.products.map((p: { id: string }) => p.id)).toEqual([
      "facebook/bart-large-mnli",
      "facebook/bart-large-cnn",
      "facebook/detr-resnet-50",
    ]);
    const script = await hub.app.request("/widget/top-products.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });
});
