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

/** Where each licence and date comes from: the public page that shows it. */
interface SourcedFact {
  value: string;
  source: string;
}
const sources: { models: Record<string, { license?: SourcedFact; createdAt?: SourcedFact }> } = JSON.parse(
  readFileSync(`${BUILT_IN_CATALOGUE_DIR}sources.json`, "utf8"),
);

/** The public hub's licence identifiers (https://huggingface.co/docs/hub/repositories-licenses). */
const KNOWN_LICENSES = [
  "apache-2.0",
  "mit",
  "openrail",
  "bigscience-openrail-m",
  "creativeml-openrail-m",
  "bigscience-bloom-rail-1.0",
  "bigcode-openrail-m",
  "afl-3.0",
  "artistic-2.0",
  "bsl-1.0",
  "bsd",
  "bsd-2-clause",
  "bsd-3-clause",
  "bsd-3-clause-clear",
  "c-uda",
  "cc",
  "cc0-1.0",
  "cc-by-2.0",
  "cc-by-2.5",
  "cc-by-3.0",
  "cc-by-4.0",
  "cc-by-sa-3.0",
  "cc-by-sa-4.0",
  "cc-by-nc-2.0",
  "cc-by-nc-3.0",
  "cc-by-nc-4.0",
  "cc-by-nd-4.0",
  "cc-by-nc-nd-3.0",
  "cc-by-nc-nd-4.0",
  "cc-by-nc-sa-2.0",
  "cc-by-nc-sa-3.0",
  "cc-by-nc-sa-4.0",
  "cdla-sharing-1.0",
  "cdla-permissive-1.0",
  "cdla-permissive-2.0",
  "wtfpl",
  "ecl-2.0",
  "epl-1.0",
  "epl-2.0",
  "etalab-2.0",
  "eupl-1.1",
  "eupl-1.2",
  "agpl-3.0",
  "gfdl",
  "gpl",
  "gpl-2.0",
  "gpl-3.0",
  "lgpl",
  "lgpl-2.1",
  "lgpl-3.0",
  "isc",
  "h-research",
  "intel-research",
  "lppl-1.3c",
  "ms-pl",
  "apple-ascl",
  "apple-amlr",
  "mpl-2.0",
  "odc-by",
  "odbl",
  "openrail++",
  "osl-3.0",
  "postgresql",
  "ofl-1.1",
  "ncsa",
  "unlicense",
  "zlib",
  "pddl",
  "lgpl-lr",
  "deepfloyd-if-license",
  "fair-noncommercial-research-license",
  "llama2",
  "llama3",
  "llama3.1",
  "llama3.2",
  "llama3.3",
  "llama4",
  "gemma",
  "unknown",
  "other",
];

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

  it("dates a model only from a source: no invented dates, none before the hub's records began", () => {
    for (const model of models) {
      // A last modification is the hub's own (the demo copy's commit); the catalogue cannot know it.
      expect(model.lastModified, model.id).toBeUndefined();
      if (model.createdAt === undefined) continue;
      const created = Date.parse(model.createdAt);
      expect(Number.isFinite(created), model.id).toBe(true);
      // The public hub dates every repository older than its 2022 migration at 2022-03-02.
      expect(created, model.id).toBeGreaterThanOrEqual(Date.parse("2022-03-02T00:00:00Z"));
      expect(sources.models[model.id]?.createdAt?.value, model.id).toBe(model.createdAt.slice(0, 10));
    }
  });

  it("has a sources entry for every licence and date it states, from the public hub's licence list", () => {
    const byId = new Map(models.map((model) => [model.id, model]));
    for (const model of models) {
      const license = model.cardData?.license;
      if (license === undefined) continue;
      expect(KNOWN_LICENSES, `${model.id}: ${license}`).toContain(license);
      expect(sources.models[model.id]?.license?.value, model.id).toBe(license);
    }
    for (const [id, entry] of Object.entries(sources.models)) {
      const model = byId.get(id);
      expect(model, id).toBeDefined();
      if (entry.license) expect(model?.cardData?.license, id).toBe(entry.license.value);
      if (entry.createdAt) expect(model?.createdAt?.slice(0, 10), id).toBe(entry.createdAt.value);
      for (const fact of [entry.license, entry.createdAt]) {
        if (fact !== undefined) expect(fact.source, id).toMatch(/^https:\/\//);
      }
    }
    const checked = (id: string) => sources.models[id]?.license?.source;
    expect(checked("black-forest-labs/FLUX.1-schnell")).toMatch(/^https:/);
    expect(sources.models["microsoft/phi-4"]?.createdAt).toEqual({
      value: "2024-12-11",
      source: "https://huggingface.co/microsoft/phi-4/commits/refs%2Fpr%2F1",
    });
  });

  it("states no fact without a source: every licence and date has the page that shows it", () => {
    const unsourced = Object.entries(sources.models).flatMap(([id, entry]) =>
      (["license", "createdAt"] as const)
        .filter((kind) => entry[kind] !== undefined && typeof entry[kind]?.source !== "string")
        .map((kind) => `${id}: ${kind} ${entry[kind]?.value}`),
    );
    expect(
      unsourced,
      "Each of these facts needs the https URL of a public page that shows it in sources.json " +
        "(apps/hub/catalogue/README.md says how to find one), or to be removed from models.json " +
        "(cardData.license and its license: tag, or createdAt) and from sources.json",
    ).toEqual([]);
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
