import { InvalidInputError } from "../errors.js";
import type { ProviderMappings } from "../store/mapping-record.js";
import type { StoredModel } from "../store/models-table.js";

/** Fields a caller may ask for with `expand[]=`, as on the public hub (plus `cardText`, the model card). */
export const EXPAND_FIELDS = [
  "author",
  "cardData",
  "cardText",
  "config",
  "createdAt",
  "disabled",
  "downloads",
  "gated",
  "gguf",
  "inference",
  "inferenceProviderMapping",
  "lastModified",
  "library_name",
  "likes",
  "pipeline_tag",
  "private",
  "safetensors",
  "siblings",
  "tags",
  "transformersInfo",
  "trendingScore",
  "widgetData",
] as const;
export type ExpandField = (typeof EXPAND_FIELDS)[number];
const EXPAND_SET: ReadonlySet<string> = new Set(EXPAND_FIELDS);

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

/** What `GET /api/models/{id}` returns without `expand[]`. */
const DETAIL_FIELDS: readonly ExpandField[] = EXPAND_FIELDS.filter(
  (field) => field !== "inferenceProviderMapping",
);

export function parseExpand(values: readonly string[]): ExpandField[] {
  const fields = values.flatMap((value) => value.split(",")).filter((value) => value.length > 0);
  for (const field of fields) {
    if (!EXPAND_SET.has(field)) {
      throw new InvalidInputError(
        `Invalid expand field ${JSON.stringify(field.slice(0, 60))}. Allowed: ${EXPAND_FIELDS.join(", ")}.`,
      );
    }
  }
  return [...new Set(fields)] as ExpandField[];
}

function fieldValue(model: StoredModel, field: ExpandField, mappings: ProviderMappings | undefined): unknown {
  switch (field) {
    case "disabled":
      return false;
    case "inference":
      // The public hub says "warm" when some provider serves the model right now.
      return Object.values(mappings ?? {}).some((mapping) => mapping.status === "live") ? "warm" : undefined;
    case "inferenceProviderMapping":
      return mappings ?? {};
    default:
      return model[field];
  }
}

/** The fields a response carries: `expand[]` if given, else everything for `full`, else the default set. */
export function fieldsFor(
  kind: "list" | "detail",
  expand: ExpandField[],
  full: boolean,
): readonly ExpandField[] {
  if (expand.length > 0) return expand;
  if (full) return EXPAND_FIELDS;
  return kind === "list" ? LIST_FIELDS : DETAIL_FIELDS;
}

export function needsMappings(fields: readonly ExpandField[]): boolean {
  return fields.includes("inferenceProviderMapping") || fields.includes("inference");
}

/** A model in the public API's JSON shape: `_id`, `id`, `modelId`, then the selected fields. */
export function modelView(
  model: StoredModel,
  fields: readonly ExpandField[],
  mappings: ProviderMappings | undefined,
): Record<string, unknown> {
  const view: Record<string, unknown> = { _id: model.objectId, id: model.id, modelId: model.id };
  for (const field of fields) {
    const value = fieldValue(model, field, mappings);
    if (value !== undefined) view[field] = value;
  }
  return view;
}
