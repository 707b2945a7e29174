import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SANA_DEFAULT_STEPS } from "../inputs/constants.js";
import type { ModelData } from "../model-data.js";
import { isPipelineType } from "../pipelines.js";
import { LIBRARY_TASK_MAPPING } from "./library-to-tasks.js";
import {
  ALL_MODEL_LIBRARY_KEYS,
  FILTERABLE_MODEL_LIBRARY_KEYS,
  getLibrarySnippets,
  isModelLibraryKey,
  MODEL_LIBRARIES,
} from "./model-libraries.js";
import type { ModelLibrary } from "./types.js";

/** A file-path query: field:value terms joined by AND / OR (values quoted, or bare for wildcards). */
const DOWNLOAD_QUERY = /^\s*[a-z_]+:("[^"]+"|[^\s"]+)(\s+(AND|OR)\s+[a-z_]+:("[^"]+"|[^\s"]+))*\s*$/;

describe("MODEL_LIBRARIES", () => {
  const entries = ALL_MODEL_LIBRARY_KEYS.map((key) => [key, MODEL_LIBRARIES[key] as ModelLibrary] as const);

  it("has well-formed entries", () => {
    for (const [key, library] of entries) {
      expect(library.prettyLabel.trim(), key).not.toBe("");
      expect(library.repoName.trim(), key).not.toBe("");
      expect(new URL(library.repoUrl).protocol, key).toBe("https:");
      if (library.docsUrl !== undefined) expect(new URL(library.docsUrl).protocol, key).toBe("https:");
      expect(typeof library.filter, key).toBe("boolean");
      if (library.countDownloads !== undefined) expect(library.countDownloads, key).toMatch(DOWNLOAD_QUERY);
    }
  });

  it("lists filters among its keys, sorted", () => {
    expect(FILTERABLE_MODEL_LIBRARY_KEYS.every((key) => MODEL_LIBRARIES[key].filter)).toBe(true);
    expect([...ALL_MODEL_LIBRARY_KEYS].sort()).toEqual(ALL_MODEL_LIBRARY_KEYS);
  });

  it("maps libraries to pipeline tasks it knows", () => {
    for (const [library, tasks] of Object.entries(LIBRARY_TASK_MAPPING)) {
      expect(isModelLibraryKey(library), library).toBe(true);
      for (const task of tasks ?? []) expect(isPipelineType(task), `${library}: ${task}`).toBe(true);
    }
  });

  it("gives no snippets for a model without a known library", () => {
    expect(getLibrarySnippets({ id: "acme/x", tags: [] })).toEqual([]);
    expect(getLibrarySnippets({ id: "acme/x", tags: [], library_name: "no-such-library" })).toEqual([]);
    expect(getLibrarySnippets({ id: "acme/x", tags: [], library_name: "__proto__" })).toEqual([]);
    expect(getLibrarySnippets({ id: "acme/x", tags: [], library_name: "toString" })).toEqual([]);
  });
});

describe("the Sana snippet", () => {
  it("renders the specification's 1024x1024 in 18 steps, from the constants the diffusion defaults use", () => {
    const [snippet] = getLibrarySnippets({
      id: "Efficient-Large-Model/Sana_1600M_1024px",
      tags: [],
      library_name: "sana",
    });
    expect(SANA_DEFAULT_STEPS).toBe(18);
    expect(snippet!.content).toContain(`num_inference_steps=${SANA_DEFAULT_STEPS},`);
    expect(snippet!.content).toContain("height=1024,\n    width=1024,");
  });
});

describe("getLibrarySnippets on arbitrary records", () => {
  it("never throws, whatever JSON the record's fields hold", () => {
    const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<never>;
    const field = fc.oneof(json, fc.constant(undefined)) as fc.Arbitrary<never>;
    const record = fc.record({
      id: fc.oneof(fc.string(), json),
      tags: fc.oneof(
        fc.array(fc.oneof(fc.string(), fc.constantFrom("lora", "conversational", "skops"))),
        json,
      ),
      pipeline_tag: fc.oneof(
        fc.constantFrom("text-generation", "image-text-to-text", "text-to-image"),
        field,
      ),
      config: fc.oneof(
        field,
        fc.record(
          {
            peft: json,
            sklearn: json,
            speechbrain: json,
            keras_hub: fc.oneof(json, fc.record({ tasks: json })),
            adapter_transformers: json,
            architectures: json,
          },
          { requiredKeys: [] },
        ),
      ) as fc.Arbitrary<never>,
      cardData: fc.oneof(field, fc.record({ base_model: json, instance_prompt: json })),
      widgetData: fc.oneof(
        field,
        fc.array(fc.record({ text: json, sentences: json, source_sentence: json, context: json })),
      ),
      transformersInfo: field,
      siblings: field,
    }) as fc.Arbitrary<ModelData>;
    fc.assert(
      fc.property(record, fc.constantFrom(...ALL_MODEL_LIBRARY_KEYS), (model, library) => {
        const snippets = getLibrarySnippets({ ...model, library_name: library });
        return Array.isArray(snippets) && snippets.every((s) => typeof s.content === "string");
      }),
      { numRuns: 2000, seed: 3 },
    );
  });
});
