import { isScalar, isSeq, parseDocument } from "yaml";
import type { RepoRef } from "../../lib/repo-ref.js";

/** A front matter field the card form shows: its key, its label, and whether it holds a list. */
export interface CardField {
  key: string;
  label: string;
  list: boolean;
  hint: string;
}

const LICENSE: CardField = {
  key: "license",
  label: "Licence",
  list: false,
  hint: "A licence id, e.g. apache-2.0",
};
const TAGS: CardField = { key: "tags", label: "Tags", list: true, hint: "Separated by commas" };
const LANGUAGES: CardField = {
  key: "language",
  label: "Languages",
  list: true,
  hint: "ISO 639-1 codes separated by commas, e.g. en, fr",
};
const BASE_MODEL: CardField = {
  key: "base_model",
  label: "Base model",
  list: true,
  hint: "The model this one derives from (owner/name); several separated by commas",
};
const DATASETS: CardField = {
  key: "datasets",
  label: "Datasets",
  list: true,
  hint: "Dataset ids (owner/name) separated by commas",
};
const PIPELINE: CardField = { key: "pipeline_tag", label: "Pipeline", list: false, hint: "The task it does" };

/** The common fields per kind of repository, as the public hub's card metadata names them. */
export const CARD_FIELDS: Record<RepoRef["type"], readonly CardField[]> = {
  model: [LICENSE, PIPELINE, LANGUAGES, TAGS, BASE_MODEL, DATASETS],
  dataset: [LICENSE, LANGUAGES, TAGS],
  space: [LICENSE, TAGS, DATASETS],
};

/**
 * The metadata block and what follows it, as huggingface_hub's RepoCard and the hub (derive/front-matter.ts)
 * find it: after optional blank lines, between `---` lines (an empty block too).
 */
const BLOCK = /^(\s*---[ \t]*\r?\n)(?:([\s\S]*?)\r?\n)?(---[ \t]*(?:\r?\n|$))/;

export interface CardParts {
  /** The YAML between the `---` lines; undefined when the card has no block. */
  yaml: string | undefined;
  /** Everything after the block (the whole text when there is none). */
  body: string;
}

export function splitCard(text: string): CardParts {
  const match = BLOCK.exec(text);
  if (!match) return { yaml: undefined, body: text };
  return { yaml: match[2] ?? "", body: text.slice(match[0].length) };
}

/** What the form shows of a card's metadata, or why it cannot (the block is not a YAML mapping). */
export type CardMetadata =
  | { ok: true; values: Record<string, string[] | undefined>; otherKeys: string[] }
  | { ok: false; problem: string };

/** A field's value as a list of strings; undefined when absent, null when the form cannot show it. */
function fieldValue(value: unknown): string[] | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  return null;
}

/** The form's view of `text`'s front matter for `fields`; the keys it does not show are listed as kept. */
export function readCardMetadata(text: string, fields: readonly CardField[]): CardMetadata {
  const { yaml } = splitCard(text);
  if (yaml === undefined) return { ok: true, values: {}, otherKeys: [] };
  const document = parseDocument(yaml);
  if (document.errors.length > 0) {
    return { ok: false, problem: `The metadata block is not valid YAML: ${document.errors[0]?.message}` };
  }
  const data: unknown = document.toJS();
  if (data === null || data === undefined) return { ok: true, values: {}, otherKeys: [] };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, problem: "The metadata block is not a mapping of keys to values." };
  }
  const record = data as Record<string, unknown>;
  const values: Record<string, string[] | undefined> = {};
  for (const field of fields) {
    const value = fieldValue(record[field.key]);
    if (value === null || (!field.list && value && value.length > 1)) {
      return {
        ok: false,
        problem: `“${field.key}” holds ${value === null ? `something other than text${field.list ? " or a list of texts" : ""}` : "several values"}: edit it in the file below.`,
      };
    }
    values[field.key] = value;
  }
  const shown = new Set(fields.map((field) => field.key));
  return { ok: true, values, otherKeys: Object.keys(record).filter((key) => !shown.has(key)) };
}

/** A form field's text as the values it names: a list is split on commas, blanks dropped. */
export function parseFieldText(field: CardField, text: string): string[] {
  if (!field.list) return text.trim() ? [text.trim()] : [];
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item, index, all) => item.length > 0 && all.indexOf(item) === index);
}

const sameList = (a: readonly string[] | undefined, b: readonly string[]) =>
  (a ?? []).length === b.length && b.every((item, index) => a?.[index] === item);

/**
 * `text` with `field` set to `values` in its front matter, everything else as it was: the other keys, their
 * order and comments (yaml's Document keeps them), and the body byte for byte. No values removes the key; a
 * key that held one string keeps that shape while it holds one value. A card without a block gets one.
 * Unchanged values give `text` back untouched.
 */
export function setCardField(text: string, field: CardField, values: string[]): string {
  const { yaml, body } = splitCard(text);
  const document = parseDocument(yaml ?? "");
  if (document.errors.length > 0) throw new Error("The metadata block is not valid YAML.");
  const data: unknown = document.toJS();
  const current = fieldValue(
    data !== null && typeof data === "object" && !Array.isArray(data)
      ? (data as Record<string, unknown>)[field.key]
      : undefined,
  );
  if (current === null) throw new Error(`“${field.key}” holds something the form cannot edit.`);
  if (sameList(current, values)) return text;
  const node = document.get(field.key, true);
  const wasScalar = node !== undefined && isScalar(node);
  if (values.length === 0) {
    document.delete(field.key);
  } else if (!field.list || (values.length === 1 && (wasScalar || field.key === "base_model"))) {
    document.set(field.key, values[0]);
  } else if (isSeq(node) && node.flow) {
    // A list written inline (`[a, b]`) stays inline.
    const list = document.createNode(values);
    if (isSeq(list)) list.flow = true;
    document.set(field.key, list);
  } else {
    document.set(field.key, values);
  }
  const contents = document.contents;
  const empty =
    contents === null || (typeof contents === "object" && "items" in contents && contents.items.length === 0);
  if (empty && yaml === undefined) return text;
  // Written as people write cards: long values not folded onto new lines, `[a, b]` without inner spaces (a
  // diff would otherwise show lines nobody changed).
  const serialized = empty ? "" : document.toString({ lineWidth: 0, flowCollectionPadding: false });
  if (yaml === undefined) return `---\n${serialized}---\n${body.startsWith("\n") ? "" : "\n"}${body}`;
  const match = BLOCK.exec(text);
  const opening = match?.[1] ?? "---\n";
  const closing = match?.[3] ?? "---\n";
  return `${opening}${serialized}${closing}${body}`;
}
