import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BUILT_IN_CATALOGUE_DIR } from "./catalogue.js";

interface CatalogueRecord {
  id: string;
  tags?: string[];
  createdAt?: string;
  lastModified?: string;
  cardData?: { license?: string };
  config?: { tokenizer_config?: { chat_template?: unknown } };
  gguf?: { chat_template?: unknown };
}

const models: CatalogueRecord[] = JSON.parse(readFileSync(`${BUILT_IN_CATALOGUE_DIR}models.json`, "utf8"));

/** The chat-template corpus (a copy of shared/corpus/chat-templates.json kept by the jinja package). */
const corpus: Array<{ id: string; template: string }> = JSON.parse(
  readFileSync(
    fileURLToPath(
      new URL("../../../../packages/jinja/src/__fixtures__/chat-templates.json", import.meta.url),
    ),
    "utf8",
  ),
);

const LLAMA_31 = "hf-e2e/meta-llama/Llama-3.1-8B-Instruct";
const LLAMA_32 = "gpt4all/Llama-3.2-1B-Instruct";
const QWEN_25 = "hf-e2e/Qwen/Qwen2.5-7B-Instruct";
const QWEN_3 = "hf-e2e/Qwen/Qwen3-0.6B";

/**
 * The models whose own template is in the corpus, and which entry it is (the model itself, or a model of the
 * same family that ships the identical template). Every other model carries no template: a generic or a
 * borrowed one would render prompts the model was never trained on.
 */
const OWN_TEMPLATE: Record<string, string> = {
  "meta-llama/Llama-3.3-70B-Instruct": LLAMA_31,
  "meta-llama/Llama-3.1-8B-Instruct": LLAMA_31,
  "meta-llama/Llama-3.2-1B-Instruct": LLAMA_32,
  "meta-llama/Llama-3.2-3B-Instruct": LLAMA_32,
  "bartowski/Llama-3.2-3B-Instruct-GGUF": LLAMA_32,
  "mlx-community/Llama-3.2-3B-Instruct-4bit": LLAMA_32,
  "Qwen/Qwen2.5-7B-Instruct": QWEN_25,
  "Qwen/Qwen2.5-72B-Instruct": QWEN_25,
  "Qwen/Qwen2.5-Coder-32B-Instruct": QWEN_25,
  "lmstudio-community/Qwen2.5-7B-Instruct-GGUF": QWEN_25,
  "mlx-community/Qwen2.5-7B-Instruct-4bit": QWEN_25,
  "Qwen/Qwen3-0.6B": QWEN_3,
  "Qwen/Qwen3-8B": QWEN_3,
  "Qwen/Qwen3-235B-A22B": QWEN_3,
  "deepseek-ai/DeepSeek-R1": "hf-e2e/deepseek-ai/DeepSeek-R1",
  "mistralai/Mistral-7B-Instruct-v0.3": "hf-e2e/mistralai/Mistral-7B-Instruct-v0.3 (JSON Schema)",
  "mistralai/Mixtral-8x7B-Instruct-v0.1": "hf-e2e/mistralai/Mixtral-8x7B-Instruct-v0.1",
  "mistralai/Mistral-Nemo-Instruct-2407": "hf-e2e/mistralai/Mistral-Nemo-Instruct-2407",
  "HuggingFaceTB/SmolLM3-3B": "hf-e2e/HuggingFaceTB/SmolLM3-3B",
  "HuggingFaceH4/zephyr-7b-beta": "hf-e2e/HuggingFaceH4/zephyr-7b-beta",
  "CohereLabs/c4ai-command-a-03-2025": "hf-e2e/CohereLabs/c4ai-command-a-03-2025",
  "ibm-granite/granite-3.1-8b-instruct": "gpt4all/granite-3.1-3b-a800m-instruct",
  "Qwen/Qwen2.5-VL-7B-Instruct": "hf-e2e/Qwen/Qwen2.5-VL-7B-Instruct",
  "meta-llama/Llama-3.2-11B-Vision-Instruct": "hf-e2e/meta-llama/Llama-3.2-11B-Vision-Instruct",
  "HuggingFaceTB/SmolVLM-Instruct": "hf-e2e/HuggingFaceTB/SmolVLM-Instruct",
  "LiquidAI/LFM2.5-VL-450M": "hf-e2e/LiquidAI/LFM2.5-VL-450M",
};

function templatesOf(model: CatalogueRecord): unknown[] {
  return [model.config?.tokenizer_config?.chat_template, model.gguf?.chat_template].filter(
    (template) => template !== undefined,
  );
}

describe("the built-in catalogue's facts", () => {
  it("gives each model its own chat template from the corpus, or none", () => {
    const byId = new Map(corpus.map((entry) => [entry.id, entry.template]));
    for (const model of models) {
      const expected = OWN_TEMPLATE[model.id];
      const templates = templatesOf(model);
      if (expected === undefined) {
        expect(templates, `${model.id} carries a template that is not its own`).toEqual([]);
      } else {
        expect(byId.has(expected), expected).toBe(true);
        expect(templates.length, `${model.id} has no template`).toBeGreaterThan(0);
        for (const template of templates) expect(template, model.id).toBe(byId.get(expected));
      }
    }
  });

  it("has no model modified before it was created, nor created before the hub's records began", () => {
    for (const model of models) {
      const created = Date.parse(model.createdAt ?? "");
      const modified = Date.parse(model.lastModified ?? "");
      expect(Number.isFinite(created) && Number.isFinite(modified), model.id).toBe(true);
      expect(modified, model.id).toBeGreaterThanOrEqual(created);
      // The public hub dates every repository older than its 2022 migration at 2022-03-02.
      expect(created, model.id).toBeGreaterThanOrEqual(Date.parse("2022-03-02T00:00:00Z"));
    }
  });

  it("states one license per model, the same in its tags and its card, or none", () => {
    for (const model of models) {
      const tagged = (model.tags ?? []).filter((tag) => tag.startsWith("license:"));
      expect(tagged.length, model.id).toBeLessThanOrEqual(1);
      expect(tagged[0]?.slice("license:".length), model.id).toBe(model.cardData?.license);
    }
    const license = (id: string) => models.find((model) => model.id === id)?.cardData?.license;
    // Spot checks of facts the catalogue once got wrong.
    expect(license("black-forest-labs/FLUX.1-schnell")).toBe("apache-2.0");
    expect(license("black-forest-labs/FLUX.1-dev")).toBe("other");
    expect(license("meta-llama/Llama-3.2-1B-Instruct")).toBe("llama3.2");
    expect(license("google/gemma-2-9b-it")).toBe("gemma");
  });
});
