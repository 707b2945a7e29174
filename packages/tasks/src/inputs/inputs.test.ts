import { describe, expect, it } from "vitest";
import { NoInputExampleError } from "../errors.js";
import type { ModelData } from "../model-data.js";
import { PIPELINE_TYPES, type PipelineType } from "../pipelines.js";
import {
  CHAT_DEFAULT_MAX_TOKENS,
  DEFAULT_TASK_INPUTS,
  findModelInputExample,
  getDiffusionDefaults,
  getModelInputExample,
  TEXT_TO_IMAGE_PROMPT,
} from "./index.js";

function model(pipeline_tag: PipelineType, extra: Partial<ModelData> = {}): ModelData {
  return { id: "acme/model", tags: [], pipeline_tag, ...extra };
}

describe("DEFAULT_TASK_INPUTS", () => {
  it("has an example, or a stated reason for none, for every pipeline type", () => {
    expect(Object.keys(DEFAULT_TASK_INPUTS).sort()).toEqual([...PIPELINE_TYPES].sort());
    for (const task of PIPELINE_TYPES) {
      const entry = DEFAULT_TASK_INPUTS[task];
      if (entry.kind === "none") expect(entry.reason.length, task).toBeGreaterThan(10);
    }
  });

  it("is plain JSON data", () => {
    expect(JSON.parse(JSON.stringify(DEFAULT_TASK_INPUTS))).toEqual(DEFAULT_TASK_INPUTS);
  });

  it("uses the spec's constants", () => {
    expect(findModelInputExample(model("zero-shot-classification"))).toMatchObject({
      parameters: { candidate_labels: ["refund", "legal", "faq"] },
    });
    expect(findModelInputExample(model("zero-shot-image-classification"))).toEqual({
      kind: "file",
      fileName: "cats.jpg",
      contentType: "image/jpeg",
      parameters: { candidate_labels: ["cat", "dog", "llama"] },
    });
    expect(findModelInputExample(model("text-to-image"))).toEqual({
      kind: "json",
      inputs: TEXT_TO_IMAGE_PROMPT,
    });
    expect(TEXT_TO_IMAGE_PROMPT).toMatch(/^Astronaut in a jungle/);
    expect(findModelInputExample(model("automatic-speech-recognition"))).toMatchObject({
      fileName: "sample1.flac",
      contentType: "audio/flac",
    });
    expect(CHAT_DEFAULT_MAX_TOKENS).toBe(500);
  });
});

describe("findModelInputExample", () => {
  it("gives conversational text-generation models the default chat", () => {
    expect(findModelInputExample(model("text-generation", { tags: ["conversational"] }))).toEqual({
      kind: "chat",
      messages: [{ role: "user", content: "What is the capital of France?" }],
    });
    expect(findModelInputExample(model("text-generation"))?.kind).toBe("json");
  });

  it("gives image-text-to-text an image URL part", () => {
    const example = findModelInputExample(model("image-text-to-text", { tags: ["conversational"] }));
    expect(example?.kind).toBe("chat");
    const content = example?.kind === "chat" ? example.messages[0]?.content : undefined;
    expect(Array.isArray(content) && content.some((part) => part.type === "image_url")).toBe(true);
  });

  it("prefers the model card's widget example", () => {
    expect(
      findModelInputExample(model("text-classification", { widgetData: [{ text: "Ça marche «bien»" }] })),
    ).toEqual({ kind: "json", inputs: "Ça marche «bien»" });
    expect(
      findModelInputExample(
        model("sentence-similarity", { widgetData: [{ source_sentence: "a", sentences: ["b", "c"] }] }),
      ),
    ).toEqual({ kind: "json", inputs: { source_sentence: "a", sentences: ["b", "c"] } });
    expect(
      findModelInputExample(
        model("zero-shot-classification", {
          widgetData: [{ text: "Where is my parcel?", candidate_labels: "shipping, billing" }],
        }),
      ),
    ).toMatchObject({
      inputs: "Where is my parcel?",
      parameters: { candidate_labels: ["shipping", "billing"] },
    });
  });

  it("ignores a widget example that does not fit the task's shape", () => {
    const fallback = DEFAULT_TASK_INPUTS["sentence-similarity"];
    expect(findModelInputExample(model("sentence-similarity", { widgetData: [{ text: "x" }] }))).toEqual(
      fallback,
    );
    expect(findModelInputExample(model("image-classification", { widgetData: [{ text: "x" }] }))).toEqual(
      DEFAULT_TASK_INPUTS["image-classification"],
    );
  });

  it("writes the model's own mask token into the fill-mask example", () => {
    const roberta = model("fill-mask", { config: { tokenizer_config: { mask_token: "<mask>" } } });
    expect(findModelInputExample(roberta)).toEqual({
      kind: "json",
      inputs: "The answer to the universe is <mask>.",
    });
    expect(findModelInputExample(model("fill-mask"))).toEqual({
      kind: "json",
      inputs: "The answer to the universe is [MASK].",
    });
  });

  it("returns a copy the caller may change", () => {
    const example = findModelInputExample(model("question-answering"));
    if (example?.kind === "json") (example.inputs as Record<string, unknown>).question = "changed";
    expect(findModelInputExample(model("question-answering"))).toEqual(
      DEFAULT_TASK_INPUTS["question-answering"],
    );
  });

  it("has nothing for tasks without an example or a model without a task", () => {
    expect(findModelInputExample(model("robotics"))).toBeUndefined();
    expect(findModelInputExample({ id: "acme/x", tags: [] })).toBeUndefined();
    expect(() => getModelInputExample(model("other"))).toThrow(NoInputExampleError);
    expect(() => getModelInputExample(model("other"))).toThrow(
      "No input example has been defined for this model task.",
    );
  });
});

describe("getDiffusionDefaults", () => {
  it("follows spec §9", () => {
    expect(getDiffusionDefaults("stabilityai/stable-diffusion-xl-base-1.0")).toEqual({
      steps: 50,
      guidanceScale: 5,
    });
    expect(getDiffusionDefaults("black-forest-labs/FLUX.1-schnell")).toEqual({ steps: 4, guidanceScale: 0 });
    expect(getDiffusionDefaults("Efficient-Large-Model/Sana_1600M_1024px_diffusers")).toMatchObject({
      steps: 18,
      width: 1024,
      height: 1024,
    });
  });
});
