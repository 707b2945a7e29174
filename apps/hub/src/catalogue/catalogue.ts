import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ModelData } from "@modelhub/tasks";
import { InvalidInputError } from "../errors.js";
import { isObject } from "../is-object.js";
import type { Store, StoreTables } from "../store/store.js";
import { type ProviderMapping, parseProviderMapping, parseProviderName } from "./mapping-record.js";
import { parseModelId } from "./model-id.js";
import { parseModelRecord } from "./model-record.js";

/** The built-in catalogue shipped with the hub (apps/hub/catalogue). */
export const BUILT_IN_CATALOGUE_DIR = fileURLToPath(new URL("../../catalogue/", import.meta.url));

/** `{ [modelId]: { [provider]: {status, providerId, task} } }` */
export type MappingsFile = Record<string, Record<string, unknown>>;

export interface Catalogue {
  /** Each record, with the public `_id` it came with (kept as the stored model's `_id`). */
  models: Array<ModelData & { _id?: string }>;
  mappings: Array<{ modelId: string; provider: string; mapping: ProviderMapping }>;
  /**
   * Where the records' downloads, likes and trending score come from when they are another site's figures
   * (a catalogue directory's `figures.json`): kept apart and labelled, never taken for this hub's counts.
   */
  figuresSource?: string;
}

/**
 * A record's inline `inferenceProviderMapping`, in either shape the public API has used: an object keyed by
 * provider, or an array of `{provider, providerId, status, task}`.
 */
function inlineMappings(record: unknown): Array<[string, unknown]> {
  if (!isObject(record)) return [];
  const inline = record.inferenceProviderMapping;
  if (Array.isArray(inline))
    return inline.map((entry) => [isObject(entry) ? String(entry.provider) : "", entry]);
  if (isObject(inline)) return Object.entries(inline);
  return [];
}

/**
 * Validates a whole catalogue before anything is written. `records` are model records in the public API's
 * format; `mappings` is the mappings file's object. Throws InvalidInputError naming the first bad entry.
 */
export function parseCatalogue(
  records: unknown,
  mappings: unknown,
  knownProviders: readonly string[] | undefined,
): Catalogue {
  if (!Array.isArray(records))
    throw new InvalidInputError("A catalogue's models must be a JSON array of records.");
  if (mappings !== undefined && !isObject(mappings)) {
    throw new InvalidInputError("A catalogue's mappings must be an object keyed by model id.");
  }
  const catalogue: Catalogue = { models: [], mappings: [] };
  const ids = new Set<string>();
  const at = (where: string, error: unknown): never => {
    const message = error instanceof Error ? error.message : String(error);
    throw new InvalidInputError(`${where}: ${message}`);
  };
  records.forEach((record, index) => {
    let model: ModelData | undefined;
    try {
      model = parseModelRecord(record);
    } catch (error) {
      at(`models[${index}]`, error);
    }
    if (!model) return;
    ids.add(model.id.toLowerCase());
    const objectId = isObject(record) && typeof record._id === "string" ? record._id : undefined;
    catalogue.models.push(objectId ? { ...model, _id: objectId } : model);
    for (const [provider, mapping] of inlineMappings(record)) {
      try {
        catalogue.mappings.push({
          modelId: model.id,
          provider: parseProviderName(provider, knownProviders),
          mapping: parseProviderMapping(mapping),
        });
      } catch (error) {
        at(`models[${index}].inferenceProviderMapping.${provider}`, error);
      }
    }
  });
  for (const [modelId, byProvider] of Object.entries(mappings ?? {})) {
    try {
      parseModelId(modelId);
      if (!isObject(byProvider)) throw new InvalidInputError("expected an object keyed by provider");
      for (const [provider, mapping] of Object.entries(byProvider)) {
        catalogue.mappings.push({
          modelId,
          provider: parseProviderName(provider, knownProviders),
          mapping: parseProviderMapping(mapping),
        });
      }
    } catch (error) {
      at(`mappings["${modelId}"]`, error);
    }
  }
  return catalogue;
}

/** Writes a parsed catalogue in one transaction. Mappings must name models in the catalogue or the store. */
export function importCatalogue(
  store: Pick<Store, "transaction">,
  catalogue: Catalogue,
): Promise<{ models: number; mappings: number }> {
  return store.transaction((tx) => writeCatalogue(tx, catalogue));
}

/** Writes a parsed catalogue through `tables` (inside the caller's transaction). */
export async function writeCatalogue(
  tables: StoreTables,
  catalogue: Catalogue,
): Promise<{ models: number; mappings: number }> {
  for (const { _id, ...model } of catalogue.models) {
    if (catalogue.figuresSource === undefined) {
      await tables.models.upsert(model, _id);
      continue;
    }
    // Another site's figures: kept labelled; this hub's own counters start at nothing.
    const { downloads = 0, likes = 0, trendingScore: _trending, ...rest } = model;
    const stored = await tables.models.upsert({ ...rest, downloads: 0, likes: 0, trendingScore: 0 }, _id);
    await tables.engagement.setSourceFigures(stored.id, {
      source: catalogue.figuresSource,
      downloads,
      likes,
    });
  }
  for (const { modelId, provider, mapping } of catalogue.mappings) {
    if (!(await tables.models.get(modelId))) {
      throw new InvalidInputError(`mappings["${modelId}"]: no such model in the catalogue or the hub.`);
    }
    await tables.mappings.set(modelId, provider, mapping);
  }
  return { models: catalogue.models.length, mappings: catalogue.mappings.length };
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new InvalidInputError(
      `Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Reads `models.json` and (optionally) `mappings.json` from a catalogue directory. */
export function readCatalogueDir(dir: string, knownProviders: readonly string[] | undefined): Catalogue {
  const mappingsPath = join(dir, "mappings.json");
  const figuresPath = join(dir, "figures.json");
  const catalogue = parseCatalogue(
    readJson(join(dir, "models.json")),
    existsSync(mappingsPath) ? readJson(mappingsPath) : undefined,
    knownProviders,
  );
  const figures = existsSync(figuresPath) ? readJson(figuresPath) : undefined;
  if (figures !== undefined) {
    if (!isObject(figures) || typeof figures.source !== "string" || !figures.source) {
      throw new InvalidInputError(`${figuresPath}: expected {"source": "<where the figures come from>"}.`);
    }
    catalogue.figuresSource = figures.source;
  }
  return catalogue;
}

/**
 * Reads an import file: an array of model records (each may carry an inline `inferenceProviderMapping`),
 * one record, or `{ models: [...], mappings: {...} }`.
 */
export function readImportFile(path: string, knownProviders: readonly string[] | undefined): Catalogue {
  const content = readJson(path);
  if (Array.isArray(content)) return parseCatalogue(content, undefined, knownProviders);
  if (isObject(content) && Array.isArray(content.models)) {
    return parseCatalogue(content.models, content.mappings, knownProviders);
  }
  return parseCatalogue([content], undefined, knownProviders);
}

/**
 * The creation dates a catalogue directory's records state (`createdAt`, each sourced: the built-in
 * catalogue's sources.json), read on first use: demo copies are dated by them or not at all. A record without
 * one, or a directory that cannot be read, gives undefined.
 */
export function sourcedCreationDates(dir: string): (modelId: string) => string | undefined {
  let dates: Map<string, string> | undefined;
  return (modelId) => {
    if (!dates) {
      dates = new Map();
      try {
        const records = readJson(join(dir, "models.json"));
        for (const record of Array.isArray(records) ? records : []) {
          if (!isObject(record) || typeof record.createdAt !== "string") continue;
          const id = typeof record.id === "string" ? record.id : record.modelId;
          const date = Date.parse(record.createdAt);
          if (typeof id === "string" && !Number.isNaN(date)) {
            dates.set(id.toLowerCase(), new Date(date).toISOString());
          }
        }
      } catch {
        // No catalogue to read: no date is known.
      }
    }
    return dates.get(modelId.toLowerCase());
  };
}

const SEEDED_KEY = "catalogue_seeded_at";

/**
 * Loads the catalogue on the first start of a data directory only; later starts keep whatever the store
 * holds (including deletions). Returns the counts written, or undefined when the store was already seeded.
 */
export async function seedOnFirstStart(
  store: Store,
  dir: string,
  knownProviders: readonly string[] | undefined,
  now: () => Date = () => new Date(),
  /** Mappings the hub can serve end to end; the others are not offered (not stored). Default: all. */
  offered: (provider: string, task: string) => boolean = () => true,
): Promise<{ models: number; mappings: number } | undefined> {
  if (await store.meta.get(SEEDED_KEY)) return undefined;
  const read = readCatalogueDir(dir, knownProviders);
  const catalogue = {
    ...read,
    mappings: read.mappings.filter(({ provider, mapping }) => offered(provider, mapping.task)),
  };
  // Two hubs started at once on an empty data dir both get here: the write lock taken at the start and
  // the second look at the marker make exactly one of them load the catalogue.
  return store.writeTransaction(async (tx) => {
    await tx.lock(SEEDED_KEY);
    if (await tx.meta.get(SEEDED_KEY)) return undefined;
    const counts = await writeCatalogue(tx, catalogue);
    await tx.meta.set(SEEDED_KEY, now().toISOString());
    return counts;
  });
}
