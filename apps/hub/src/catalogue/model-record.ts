import { isPipelineType, type ModelData, type PipelineType } from "@modelhub/tasks";
import { z } from "zod";
import { InvalidInputError } from "../errors.js";
import { parseInput } from "../http/validate.js";
import { isObject } from "../is-object.js";
import { parseModelId } from "./model-id.js";

const MAX_TAGS = 500;
const MAX_TAG_LENGTH = 200;

/** Absent and null alike: the field is left out of the record. */
const optional = <S extends z.ZodType>(schema: S) =>
  schema.nullish().transform((value) => value ?? undefined);

/** A JSON object, kept as it is (config, cardData, gguf…: the public hub's own shapes). */
const jsonObject = z.custom<Record<string, unknown>>(isObject, { error: "must be an object." });

const count = z.number().nonnegative({ error: "must be a non-negative number." });

const text = (maxLength: number) =>
  z.string().max(maxLength, { error: `must be a string of at most ${maxLength} characters.` });

const date = text(40)
  .refine((value) => !Number.isNaN(Date.parse(value)), { error: "must be an ISO 8601 date." })
  .transform((value) => new Date(Date.parse(value)).toISOString());

/**
 * The fields of a record in the public hub API's format (`GET /api/models/{id}?full=true`) that the hub
 * keeps, each type-checked; unknown fields (`_id`, `sha`, `spaces`...) are dropped. The id is read apart
 * (`id` or `modelId`: parseModelId).
 */
const modelRecordSchema = z.object({
  tags: optional(
    z
      .array(text(MAX_TAG_LENGTH), { error: "must be an array of strings." })
      .max(MAX_TAGS, { error: `must be at most ${MAX_TAGS} strings.` }),
  ).transform((tags) => [...new Set(tags ?? [])]),
  pipeline_tag: optional(
    z.custom<PipelineType>((value) => isPipelineType(value), { error: "must be a known pipeline task." }),
  ),
  library_name: optional(
    text(100).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, {
      error: "must be a library id (letters, digits, '.', '_', '-').",
    }),
  ),
  config: optional(jsonObject),
  cardData: optional(jsonObject),
  widgetData: optional(z.array(jsonObject, { error: "must be an array of objects." })),
  transformersInfo: optional(jsonObject),
  siblings: optional(
    z.array(z.looseObject({ rfilename: z.string() }), { error: "must be an array of {rfilename}." }),
  ),
  gguf: optional(jsonObject),
  safetensors: optional(jsonObject),
  downloads: optional(count),
  likes: optional(count),
  trendingScore: optional(count),
  private: z.boolean().optional(),
  gated: optional(
    z.union([z.literal(false), z.enum(["auto", "manual"])], { error: 'must be false, "auto" or "manual".' }),
  ),
  createdAt: optional(date),
  lastModified: optional(date),
  cardText: optional(text(200_000)),
});

/**
 * Turns a record in the public hub API's format (`GET /api/models/{id}?full=true`) into a ModelData.
 * Unknown fields (`_id`, `sha`, `spaces`...) are ignored; known fields are type-checked.
 */
export function parseModelRecord(input: unknown): ModelData {
  if (!isObject(input)) throw new InvalidInputError("Invalid model record: expected a JSON object.");
  const id = parseModelId(input.id ?? input.modelId);
  const { tags, pipeline_tag, library_name, ...rest } = parseInput(modelRecordSchema, input, {
    what: "model record",
  });
  const record: ModelData = {
    id,
    tags,
    ...(pipeline_tag !== undefined ? { pipeline_tag } : {}),
    ...(library_name !== undefined ? { library_name } : {}),
  };
  // A field the record leaves out stays absent, not a key holding undefined.
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) (record as unknown as Record<string, unknown>)[key] = value;
  }
  return record;
}
