import { isPipelineType, type ModelData } from "@modelhub/tasks";
import { InvalidInputError } from "../errors.js";
import { isObject } from "../is-object.js";
import { parseModelId } from "./model-id.js";

type JsonObject = Record<string, unknown>;

function fail(field: string, expectation: string): never {
  throw new InvalidInputError(`Invalid model record: "${field}" must be ${expectation}.`);
}

function optionalObject<T>(record: JsonObject, field: string): T | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) fail(field, "an object");
  return value as T;
}

function optionalArray<T>(
  record: JsonObject,
  field: string,
  check: (item: unknown) => boolean,
  what: string,
) {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every(check)) fail(field, `an array of ${what}`);
  return value as T[];
}

function optionalCount(record: JsonObject, field: string): number | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) fail(field, "a non-negative number");
  return value;
}

function optionalString(record: JsonObject, field: string, maxLength = 200): string | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value.length > maxLength)
    fail(field, `a string of at most ${maxLength} characters`);
  return value;
}

function optionalDate(record: JsonObject, field: string): string | undefined {
  const value = optionalString(record, field, 40);
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) fail(field, "an ISO 8601 date");
  return new Date(time).toISOString();
}

const MAX_TAGS = 500;
const MAX_TAG_LENGTH = 200;

/**
 * Turns a record in the public hub API's format (`GET /api/models/{id}?full=true`) into a ModelData.
 * Unknown fields (`_id`, `sha`, `spaces`...) are ignored; known fields are type-checked.
 */
export function parseModelRecord(input: unknown): ModelData {
  if (!isObject(input)) throw new InvalidInputError("Invalid model record: expected a JSON object.");
  const id = parseModelId(input.id ?? input.modelId);
  const tags =
    optionalArray<string>(
      input,
      "tags",
      (tag) => typeof tag === "string" && tag.length <= MAX_TAG_LENGTH,
      "strings",
    ) ?? [];
  if (tags.length > MAX_TAGS) fail("tags", `at most ${MAX_TAGS} strings`);

  const pipelineTag = input.pipeline_tag;
  if (pipelineTag !== undefined && pipelineTag !== null && !isPipelineType(pipelineTag)) {
    fail("pipeline_tag", "a known pipeline task");
  }
  const gated = input.gated;
  if (gated !== undefined && gated !== null && gated !== false && gated !== "auto" && gated !== "manual") {
    fail("gated", 'false, "auto" or "manual"');
  }
  const isPrivate = input.private;
  if (isPrivate !== undefined && typeof isPrivate !== "boolean") fail("private", "a boolean");
  const libraryName = optionalString(input, "library_name", 100);
  if (libraryName !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(libraryName)) {
    fail("library_name", "a library id (letters, digits, '.', '_', '-')");
  }

  const record: ModelData = {
    id,
    tags: [...new Set(tags)],
    ...(isPipelineType(pipelineTag) ? { pipeline_tag: pipelineTag } : {}),
    ...(libraryName !== undefined ? { library_name: libraryName } : {}),
  };
  const assign = <K extends keyof ModelData>(key: K, value: ModelData[K] | undefined) => {
    if (value !== undefined) record[key] = value;
  };
  assign("config", optionalObject(input, "config"));
  assign("cardData", optionalObject(input, "cardData"));
  assign("widgetData", optionalArray(input, "widgetData", isObject, "objects"));
  assign("transformersInfo", optionalObject(input, "transformersInfo"));
  assign(
    "siblings",
    optionalArray(
      input,
      "siblings",
      (item) => isObject(item) && typeof item.rfilename === "string",
      "{rfilename}",
    ),
  );
  assign("gguf", optionalObject(input, "gguf"));
  assign("safetensors", optionalObject(input, "safetensors"));
  assign("downloads", optionalCount(input, "downloads"));
  assign("likes", optionalCount(input, "likes"));
  assign("trendingScore", optionalCount(input, "trendingScore"));
  assign("private", isPrivate as boolean | undefined);
  assign("gated", (gated ?? undefined) as ModelData["gated"]);
  assign("createdAt", optionalDate(input, "createdAt"));
  assign("lastModified", optionalDate(input, "lastModified"));
  assign("cardText", optionalString(input, "cardText", 200_000));
  return record;
}
