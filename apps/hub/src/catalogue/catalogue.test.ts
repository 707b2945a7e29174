import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { isPipelineType } from "@modelhub/tasks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import { InvalidInputError } from "../errors.js";
import type { Store } from "../store/store.js";
import {
  BUILT_IN_CATALOGUE_DIR,
  importCatalogue,
  readCatalogueDir,
  readImportFile,
  seedOnFirstStart,
} from "./catalogue.js";

let temp: ReturnType<typeof makeTempDir>;
let store: Store;
beforeEach(async () => {
  temp = makeTempDir();
  store = await openTestStore({ dataDir: join(temp.dir, "data") });
});
afterEach(async () => {
  await store.close();
  temp.remove();
});

describe("the built-in catalogue", () => {
  it("is valid: every record parses, every mapping names a catalogue model and a known provider", () => {
    const catalogue = readCatalogueDir(BUILT_IN_CATALOGUE_DIR, INFERENCE_PROVIDERS);
    expect(catalogue.models.length).toBeGreaterThan(10);
    const ids = new Set(catalogue.models.map((model) => model.id.toLowerCase()));
    expect(ids.size).toBe(catalogue.models.length);
    for (const { modelId } of catalogue.mappings) expect(ids.has(modelId.toLowerCase()), modelId).toBe(true);
    for (const model of catalogue.models) {
      if (model.pipeline_tag !== undefined) expect(isPipelineType(model.pipeline_tag)).toBe(true);
    }
  });

  it("is loaded on the first start only: later starts keep the store's own state", async () => {
    const first = await seedOnFirstStart(store, BUILT_IN_CATALOGUE_DIR, INFERENCE_PROVIDERS);
    expect(first?.models).toBe(await store.models.count());
    const someId = (await store.models.list({ sort: "downloads", direction: -1, limit: 1 })).models[0]!.id;
    await store.models.delete(someId);
    expect(await seedOnFirstStart(store, BUILT_IN_CATALOGUE_DIR, INFERENCE_PROVIDERS)).toBeUndefined();
    expect(await store.models.get(someId)).toBeUndefined();
  });
});

describe("import files", () => {
  const record = {
    _id: "621ffdc036468d709f174338",
    id: "google-t5/t5-small",
    pipeline_tag: "translation",
    library_name: "transformers",
    tags: ["transformers", "t5", "translation"],
    downloads: 2000000,
    inferenceProviderMapping: {
      "hf-inference": { status: "live", providerId: "google-t5/t5-small", task: "translation" },
    },
  };

  it("reads an array of public API records with inline mappings", async () => {
    const path = join(temp.dir, "models.json");
    writeFileSync(path, JSON.stringify([record]));
    expect(await importCatalogue(store, readImportFile(path, INFERENCE_PROVIDERS))).toEqual({
      models: 1,
      mappings: 1,
    });
    expect((await store.mappings.forModel("google-t5/t5-small"))["hf-inference"]?.task).toBe("translation");
    expect((await store.models.get("google-t5/t5-small"))?.objectId).toBe(record._id);
  });

  it("reads {models, mappings} and the array form of inline mappings", async () => {
    const path = join(temp.dir, "catalogue.json");
    const arrayForm = {
      ...record,
      inferenceProviderMapping: [
        { provider: "hf-inference", status: "staging", providerId: "t5", task: "translation" },
      ],
    };
    writeFileSync(
      path,
      JSON.stringify({
        models: [arrayForm],
        mappings: {
          "google-t5/t5-small": { replicate: { status: "live", providerId: "a/b", task: "translation" } },
        },
      }),
    );
    await importCatalogue(store, readImportFile(path, INFERENCE_PROVIDERS));
    expect(Object.keys(await store.mappings.forModel("google-t5/t5-small")).sort()).toEqual([
      "hf-inference",
      "replicate",
    ]);
  });

  it("refuses the whole file when one entry is bad, naming it, and writes nothing", async () => {
    const path = join(temp.dir, "bad.json");
    writeFileSync(path, JSON.stringify([record, { ...record, id: "second/model", downloads: -1 }]));
    expect(() => readImportFile(path, INFERENCE_PROVIDERS)).toThrow(/models\[1\].*downloads/);
    const unknownProvider = {
      ...record,
      inferenceProviderMapping: { "acme-ai": record.inferenceProviderMapping["hf-inference"] },
    };
    writeFileSync(path, JSON.stringify([unknownProvider]));
    expect(() => readImportFile(path, INFERENCE_PROVIDERS)).toThrow(InvalidInputError);
    writeFileSync(path, "{ nope");
    expect(() => readImportFile(path, INFERENCE_PROVIDERS)).toThrow(/Cannot read/);
    expect(await store.models.count()).toBe(0);
  });

  it("rolls back every write when a mapping names a model that does not exist", async () => {
    const path = join(temp.dir, "orphan.json");
    writeFileSync(
      path,
      JSON.stringify({
        models: [record],
        mappings: {
          "nobody/nothing": { together: { status: "live", providerId: "x", task: "conversational" } },
        },
      }),
    );
    await expect(importCatalogue(store, readImportFile(path, INFERENCE_PROVIDERS))).rejects.toThrow(
      /nobody\/nothing/,
    );
    expect(await store.models.count()).toBe(0);
  });
});
