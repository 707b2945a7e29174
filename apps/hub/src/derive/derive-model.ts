import { type GgufInfo, isPipelineType, type SafetensorsInfo, type TransformersInfo } from "@modelhub/tasks";
import type { BlobStore } from "../storage/blob-store.js";
import { parseFrontMatter } from "./front-matter.js";
import { readGgufSummary } from "./gguf.js";
import { readSafetensorsSummary } from "./safetensors.js";
import { deriveTransformersInfo } from "./transformers-info.js";

/** What the model pages show, read from a commit's files. Undefined fields: the files do not say. */
/** What deriving reads of a committed file: the store's file records fit it. */
export interface DerivableFile {
  path: string;
  sha256: string;
  size: number;
}

export interface DerivedModel {
  cardData?: Record<string, unknown>;
  cardText?: string;
  tags: string[];
  pipeline_tag?: string;
  library_name?: string;
  config?: Record<string, unknown>;
  /** The auto class, processor and task of a transformers repository (transformers-info.ts). */
  transformersInfo?: TransformersInfo;
  siblings: { rfilename: string }[];
  safetensors?: SafetensorsInfo;
  gguf?: GgufInfo;
}

/** Small text files only: a card or a config larger than this is not read. */
const MAX_TEXT_BYTES = 5 * 1024 * 1024;
/**
 * A README is read up to this many bytes, whatever its size: the page shows a card's first 100,000
 * characters (at least that many UTF-16 units fit in 512 KiB of UTF-8) and links to the raw file for the
 * rest, so a 10 MB README costs neither the database nor every model page view 10 MB.
 */
export const MAX_CARD_BYTES = 512 * 1024;
const MAX_SAFETENSORS_FILES = 64;
const TOKENIZER_FIELDS = ["chat_template", "bos_token", "eos_token", "pad_token", "unk_token"];

const stringList = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");

/**
 * Derives a model's page data from its files: card metadata and text from README.md, `config` from
 * config.json with the tokenizer's chat template (tokenizer_config.json, or chat_template.jinja), parameter
 * counts from safetensors headers and GGUF metadata from the first GGUF file, each header read with byte
 * ranges. A file that cannot be parsed contributes nothing (the commit stands; its page shows less).
 */
export async function deriveModel(blobs: BlobStore, files: readonly DerivableFile[]): Promise<DerivedModel> {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const text = async (path: string): Promise<string | undefined> => {
    const file = byPath.get(path);
    if (!file || file.size > MAX_TEXT_BYTES || file.size === 0) return file?.size === 0 ? "" : undefined;
    return (await blobs.read(file.sha256, { start: 0, end: file.size - 1 })).toString("utf8");
  };
  const jsonObject = async (path: string): Promise<Record<string, unknown> | undefined> => {
    try {
      const value = JSON.parse((await text(path)) ?? "null") as unknown;
      return value && typeof value === "object" && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  };
  const derived: DerivedModel = { tags: [], siblings: files.map((file) => ({ rfilename: file.path })) };

  const readme = await cardSource(blobs, byPath.get("README.md"));
  if (readme !== undefined) {
    const { data, body } = parseFrontMatter(readme);
    derived.cardText = body;
    if (data) {
      derived.cardData = data;
      derived.tags.push(...stringList(data.tags));
      if (isPipelineType(data.pipeline_tag)) derived.pipeline_tag = data.pipeline_tag;
      if (typeof data.library_name === "string") derived.library_name = data.library_name;
      for (const license of stringList(data.license)) derived.tags.push(`license:${license}`);
    }
  }

  const config = await jsonObject("config.json");
  const tokenizerConfig = await jsonObject("tokenizer_config.json");
  const chatTemplateFile = await text("chat_template.jinja");
  if (config || tokenizerConfig || chatTemplateFile !== undefined) {
    const view: Record<string, unknown> = {};
    for (const key of ["architectures", "model_type", "auto_map", "quantization_config"]) {
      if (config?.[key] !== undefined) view[key] = config[key];
    }
    const tokenizer: Record<string, unknown> = {};
    for (const key of TOKENIZER_FIELDS)
      if (tokenizerConfig?.[key] !== undefined) tokenizer[key] = tokenizerConfig[key];
    if (chatTemplateFile !== undefined) tokenizer.chat_template = chatTemplateFile;
    if (Object.keys(tokenizer).length) view.tokenizer_config = tokenizer;
    derived.config = view;
    if (config && !derived.library_name && Array.isArray(config.architectures))
      derived.library_name = "transformers";
  }
  const transformersInfo = deriveTransformersInfo({
    config,
    libraryName: derived.library_name,
    cardPipelineTag: derived.pipeline_tag,
    paths: files.map((file) => file.path),
  });
  if (transformersInfo) derived.transformersInfo = transformersInfo;
  // Modeling code in the repository itself, as the public hub tags it: the loading code then trusts it.
  if (transformersInfo?.custom_class) derived.tags.push("custom_code");

  const reader = (file: DerivableFile) => (start: number, end: number) =>
    blobs.read(file.sha256, { start, end });
  const safetensors = files
    .filter((file) => file.path.endsWith(".safetensors"))
    .slice(0, MAX_SAFETENSORS_FILES);
  if (safetensors.length) {
    const total: SafetensorsInfo = { parameters: {}, total: 0 };
    for (const file of safetensors) {
      try {
        const summary = await readSafetensorsSummary(reader(file), file.size);
        for (const [dtype, count] of Object.entries(summary.parameters)) {
          total.parameters[dtype] = (total.parameters[dtype] ?? 0) + count;
        }
        total.total += summary.total;
      } catch {
        // Not a readable safetensors file: it counts for nothing.
      }
    }
    if (total.total > 0) derived.safetensors = total;
    derived.tags.push("safetensors");
  }
  const gguf = files.find((file) => file.path.endsWith(".gguf"));
  if (gguf) {
    try {
      derived.gguf = await readGgufSummary(reader(gguf), gguf.size);
    } catch {
      // An unreadable GGUF header: no gguf field.
    }
    derived.tags.push("gguf");
  }
  if (derived.library_name) derived.tags.unshift(derived.library_name);
  derived.tags = [...new Set(derived.tags)];
  return derived;
}

/** The README's text up to MAX_CARD_BYTES (a character cut in two at the end is dropped). */
export async function cardSource(
  blobs: BlobStore,
  file: DerivableFile | undefined,
): Promise<string | undefined> {
  if (!file) return undefined;
  if (file.size === 0) return "";
  const end = Math.min(file.size, MAX_CARD_BYTES) - 1;
  const text = (await blobs.read(file.sha256, { start: 0, end })).toString("utf8");
  return file.size > MAX_CARD_BYTES ? text.replace(/\uFFFD+$/, "") : text;
}
