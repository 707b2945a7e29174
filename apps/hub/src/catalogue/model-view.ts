import { EXPAND_FIELDS, type ExpandField } from "../api/types.js";
import { InvalidInputError } from "../errors.js";
import type { ProviderMappings } from "./mapping-record.js";
import type { StoredModel } from "./models-table.js";

export { EXPAND_FIELDS, type ExpandField };

/** Fields the public hub answers for one model only: a listing refuses them (400), as it does. */
const DETAIL_ONLY_FIELDS: ReadonlySet<ExpandField> = new Set([
  "baseModels",
  "childrenModelCount",
  "usedStorage",
]);

/** What a listing returns per model when neither `expand[]` nor `full` is given (as the public hub). */
const LIST_FIELDS: readonly ExpandField[] = [
  "likes",
  "trendingScore",
  "private",
  "downloads",
  "tags",
  "pipeline_tag",
  "library_name",
  "createdAt",
];

/**
 * Whether a listing asks for more per model than the default fields (`full`, `expand[]`, `config`...):
 * such pages are shorter (listing-query.ts MAX_DETAILED_PAGE_SIZE).
 */
export function isDetailedListing(fields: readonly ExpandField[]): boolean {
  return fields.some((field) => !LIST_FIELDS.includes(field));
}

/**
 * A listing's `full=true`: everything a listing may expand except `config`, which the public hub leaves
 * out of `full` for its size (`config=true` adds it).
 */
const LIST_FULL_FIELDS: readonly ExpandField[] = EXPAND_FIELDS.filter(
  (field) => !DETAIL_ONLY_FIELDS.has(field) && field !== "config",
);

/** What `GET /api/models/{id}` returns without `expand[]`. */
const DETAIL_FIELDS: readonly ExpandField[] = EXPAND_FIELDS.filter(
  (field) => field !== "inferenceProviderMapping" && !DETAIL_ONLY_FIELDS.has(field),
);

export function parseExpand(values: readonly string[], kind: "list" | "detail"): ExpandField[] {
  const allowed =
    kind === "list" ? EXPAND_FIELDS.filter((field) => !DETAIL_ONLY_FIELDS.has(field)) : EXPAND_FIELDS;
  const fields = values.flatMap((value) => value.split(",")).filter((value) => value.length > 0);
  for (const field of fields) {
    if (!(allowed as readonly string[]).includes(field)) {
      throw new InvalidInputError(
        `Invalid expand field ${JSON.stringify(field.slice(0, 60))}${kind === "list" && EXPAND_FIELDS.includes(field as ExpandField) ? " in a listing (ask for one model)" : ""}. Allowed: ${allowed.join(", ")}.`,
      );
    }
  }
  return [...new Set(fields)] as ExpandField[];
}

/** What the view needs besides the stored record: mappings, and counts only the store can make. */
export interface ViewExtras {
  mappings?: ProviderMappings;
  childrenModelCount?: number;
  /**
   * The model's repository is an untouched demo copy (catalogue/demo-copies-table.ts): its dates are the
   * original's as the catalogue sourced them, or none, never when the copy was made (issue 38).
   */
  demoCopy?: { originalCreatedAt?: string };
}

function fieldValue(model: StoredModel, field: ExpandField, extras: ViewExtras): unknown {
  switch (field) {
    case "disabled":
      return false;
    case "inference":
      // The public hub says "warm" when some provider serves the model right now.
      return Object.values(extras.mappings ?? {}).some((mapping) => mapping.status === "live")
        ? "warm"
        : undefined;
    case "inferenceProviderMapping":
      return extras.mappings ?? {};
    case "createdAt":
      return extras.demoCopy ? extras.demoCopy.originalCreatedAt : model.createdAt;
    case "lastModified":
      // What the original last changed is not known here; the copy's own commit is no change of the model.
      return extras.demoCopy ? undefined : model.lastModified;
    case "downloadsAllTime":
      // One download counter is kept: it is the all-time one.
      return model.downloads;
    case "spaces":
      return []; // no Space on this hub uses a model
    case "xetEnabled":
      return true; // every repository on this hub takes Xet uploads: the hub serves the Xet CAS API itself
    case "model-index":
      return model.cardData?.["model-index"];
    case "mask_token": {
      const token = (model.config?.tokenizer_config as { mask_token?: unknown } | undefined)?.mask_token;
      return typeof token === "string" ? token : undefined;
    }
    case "baseModels":
      return baseModels(model);
    case "childrenModelCount":
      return extras.childrenModelCount;
    case "usedStorage":
      return usedStorage(model);
    case "evalResults":
    case "gitalyUid":
    case "resourceGroup":
    case "sha":
      return undefined;
    default:
      return model[field];
  }
}

const BASE_MODEL_RELATIONS = new Set(["adapter", "merge", "quantized", "finetune"]);

/** The public hub's `baseModels`: the card's `base_model`, and how this model derives from it. */
function baseModels(model: StoredModel): { relation: string; models: Array<{ id: string }> } | undefined {
  const card = model.cardData as { base_model?: unknown; base_model_relation?: unknown } | undefined;
  const ids = [card?.base_model].flat().filter((id): id is string => typeof id === "string");
  if (ids.length === 0) return undefined;
  const declared = card?.base_model_relation;
  const relation =
    typeof declared === "string" && BASE_MODEL_RELATIONS.has(declared)
      ? declared
      : ids.length > 1
        ? "merge"
        : model.library_name === "peft" || model.tags.includes("lora")
          ? "adapter"
          : model.tags.includes("gguf") || model.gguf !== undefined
            ? "quantized"
            : "finetune";
  return { relation, models: ids.map((id) => ({ id })) };
}

/** Bytes of the model's files, when the file list gives their sizes. */
function usedStorage(model: StoredModel): number | undefined {
  const sizes = (model.siblings ?? []).map((file) => (file as { size?: unknown }).size);
  if (sizes.length === 0 || !sizes.every((size) => typeof size === "number")) return undefined;
  return (sizes as number[]).reduce((sum, size) => sum + size, 0);
}

/**
 * The fields a response carries: `expand[]` if given, else everything for `full`, else the default set;
 * `extra` (a listing's `config=true`, `cardData=true`) adds to the latter two.
 */
export function fieldsFor(
  kind: "list" | "detail",
  expand: ExpandField[],
  full: boolean,
  extra: readonly ExpandField[] = [],
): readonly ExpandField[] {
  if (expand.length > 0) return expand;
  const base = full
    ? kind === "list"
      ? LIST_FULL_FIELDS
      : EXPAND_FIELDS
    : kind === "list"
      ? LIST_FIELDS
      : DETAIL_FIELDS;
  return [...new Set([...base, ...extra])];
}

export function needsMappings(fields: readonly ExpandField[]): boolean {
  return fields.includes("inferenceProviderMapping") || fields.includes("inference");
}

/** A model in the public API's JSON shape: `_id`, `id`, `modelId`, then the selected fields. */
export function modelView(
  model: StoredModel,
  fields: readonly ExpandField[],
  extras: ViewExtras,
): Record<string, unknown> {
  const view: Record<string, unknown> = { _id: model.objectId, id: model.id, modelId: model.id };
  for (const field of fields) {
    const value = fieldValue(model, field, extras);
    if (value !== undefined) view[field] = value;
  }
  return view;
}
