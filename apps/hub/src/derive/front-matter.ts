import { isPipelineType } from "@modelhub/tasks";
import { parse as parseYaml } from "yaml";

export interface FrontMatter {
  /** The metadata block, or undefined when the card has none. */
  data: Record<string, unknown> | undefined;
  /** The card's markdown after the block. */
  body: string;
  /** Problems found in the block (invalid YAML, fields of the wrong type). */
  errors: string[];
}

/** The metadata block, after optional blank lines as huggingface_hub's RepoCard reads it. */
const BLOCK = /^\s*---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const isStringList = (value: unknown) =>
  typeof value === "string" || (Array.isArray(value) && value.every((item) => typeof item === "string"));

/** Fields the hub reads from a card, and the type each must have. */
const FIELD_CHECKS: Record<string, [(value: unknown) => boolean, string]> = {
  tags: [isStringList, "a list of strings"],
  license: [isStringList, "a string"],
  language: [isStringList, "a string or a list of strings"],
  datasets: [isStringList, "a string or a list of strings"],
  base_model: [isStringList, "a string or a list of strings"],
  library_name: [(value) => typeof value === "string", "a string"],
  pipeline_tag: [(value) => typeof value === "string" && isPipelineType(value), "a known pipeline task"],
  widget: [(value) => Array.isArray(value), "a list"],
  "model-index": [isModelIndex, "a list of {name, results: [{task: {type}, metrics: [{type, value}]}]}"],
};

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The evaluation results' shape the public hub accepts (and reads for its leaderboards). */
function isModelIndex(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  return value.every(
    (model) =>
      isMapping(model) &&
      Array.isArray(model.results) &&
      model.results.every(
        (result) =>
          isMapping(result) &&
          isMapping(result.task) &&
          typeof result.task.type === "string" &&
          Array.isArray(result.metrics) &&
          result.metrics.length > 0 &&
          result.metrics.every(
            (metric) => isMapping(metric) && typeof metric.type === "string" && metric.value !== undefined,
          ),
      ),
  );
}

/** Splits a model card into its YAML metadata and markdown, checking the metadata as the public hub does. */
export function parseFrontMatter(card: string): FrontMatter {
  const match = BLOCK.exec(card.replace(/^\uFEFF/, ""));
  if (!match) return { data: undefined, body: card, errors: [] };
  const body = card.replace(/^\uFEFF/, "").slice(match[0].length);
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? "", { maxAliasCount: 100 });
  } catch (error) {
    return { data: undefined, body, errors: [`Invalid YAML: ${(error as Error).message.split("\n")[0]}`] };
  }
  if (data === null || data === undefined) return { data: undefined, body, errors: [] };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { data: undefined, body, errors: ["The metadata must be a YAML mapping (key: value)."] };
  }
  const errors: string[] = [];
  for (const [field, [check, expectation]] of Object.entries(FIELD_CHECKS)) {
    const value = (data as Record<string, unknown>)[field];
    if (value !== undefined && value !== null && !check(value))
      errors.push(`"${field}" must be ${expectation}.`);
  }
  return { data: data as Record<string, unknown>, body, errors };
}
