import { stringify as toYaml } from "yaml";
import type { ModelListPage, ModelListQuery, StoredModel } from "../catalogue/model-records.js";
import { writeTinyGguf } from "../derive/gguf.js";
import type { RepoService } from "./repo-service.js";
import { specialTokenText, tinyTokenizerJson } from "./tiny-tokenizer.js";

const PUBLIC_HUB = "https://huggingface.co";
/** Keys of a record's `config` that come from config.json (the rest are per-library summaries). */
const CONFIG_JSON_KEYS = ["architectures", "model_type", "auto_map", "quantization_config"];

/** The demo copy's card: the original's metadata, plain facts, where the original is, what this copy holds. */
export function demoCard(model: StoredModel, hasGguf: boolean): string {
  const metadata =
    model.cardData && Object.keys(model.cardData).length ? toYaml(model.cardData).trimEnd() : "";
  const facts = [
    model.pipeline_tag ? `- Task: ${model.pipeline_tag}` : "",
    model.library_name ? `- Library: ${model.library_name}` : "",
    model.cardData?.license ? `- License: ${[model.cardData.license].flat().join(", ")}` : "",
    model.safetensors?.total ? `- Parameters: ${model.safetensors.total.toLocaleString("en-US")}` : "",
    `- Original: [${model.id}](${PUBLIC_HUB}/${model.id})`,
  ].filter(Boolean);
  const holds = [
    "its model card metadata",
    model.config
      ? "its configuration and tokenizer configuration (with the chat template) as the public hub reports them"
      : "",
    hasTinyTokenizer(model)
      ? "a tiny byte-level tokenizer (tokenizer.json) that `AutoTokenizer` loads, with the original's special tokens but not its vocabulary"
      : "",
    hasGguf
      ? "tiny GGUF files that carry the original's metadata (architecture, context length, chat template) but no weights"
      : "",
  ].filter(Boolean);
  return [
    metadata ? `---\n${metadata}\n---\n` : "",
    `# ${model.id.split("/").pop()}\n`,
    `> **Demo copy.** This repository on a self-hosted Modelhub is a small demo copy of [${model.id}](${PUBLIC_HUB}/${model.id}). It holds ${holds.join("; ")}. The weights are not here: get them from the original's page.\n`,
    `${facts.join("\n")}\n`,
    // The catalogue's cardText is a short generated summary, not the original's card: say where the card is
    // rather than show the summary under its name (issue 38, item 1).
    `## Model card\n\nThe original model card is on huggingface.co: [${model.id}](${PUBLIC_HUB}/${model.id}). This demo copy does not reproduce it.\n`,
  ]
    .filter(Boolean)
    .join("\n");
}

const SPECIAL_TOKEN_KEYS = ["bos_token", "eos_token", "unk_token", "pad_token"];

/** A tiny tokenizer goes with a tokenizer configuration when config.json says which model type loads it. */
function hasTinyTokenizer(model: StoredModel): boolean {
  const config = (model.config ?? {}) as Record<string, unknown>;
  return Boolean(config.tokenizer_config && typeof config.tokenizer_config === "object" && config.model_type);
}

/** The files of a catalogue model's demo repository, built from its record (nothing is downloaded). */
export function demoFiles(model: StoredModel): { path: string; content: Uint8Array }[] {
  const files: { path: string; content: Uint8Array }[] = [];
  const config = (model.config ?? {}) as Record<string, unknown>;
  const configJson = Object.fromEntries(
    CONFIG_JSON_KEYS.filter((key) => config[key] !== undefined).map((key) => [key, config[key]]),
  );
  if (Object.keys(configJson).length) {
    files.push({ path: "config.json", content: Buffer.from(`${JSON.stringify(configJson, null, 2)}\n`) });
  }
  const tokenizerConfig = config.tokenizer_config;
  if (tokenizerConfig && typeof tokenizerConfig === "object") {
    // The public API gives special tokens as `{content}`; transformers reads a plain string (or an AddedToken).
    const written = Object.fromEntries(
      Object.entries(tokenizerConfig).map(([key, value]) => [
        key,
        SPECIAL_TOKEN_KEYS.includes(key) ? (specialTokenText(value) ?? value) : value,
      ]),
    );
    files.push({
      path: "tokenizer_config.json",
      content: Buffer.from(`${JSON.stringify(written, null, 2)}\n`),
    });
    if (hasTinyTokenizer(model)) {
      const special = SPECIAL_TOKEN_KEYS.map((key) => specialTokenText(written[key])).filter(
        (token): token is string => token !== undefined,
      );
      files.push({ path: "tokenizer.json", content: Buffer.from(tinyTokenizerJson(special)) });
    }
  }
  const ggufFiles = (model.siblings ?? [])
    .map((file) => file.rfilename)
    .filter((path) => path.endsWith(".gguf"));
  const gguf = model.gguf as
    | { architecture?: string; context_length?: number; chat_template?: string }
    | undefined;
  for (const path of ggufFiles) {
    const architecture = gguf?.architecture ?? "llama";
    files.push({
      path,
      content: writeTinyGguf({
        "general.architecture": architecture,
        "general.name": model.id,
        "general.description": `Modelhub demo copy of ${model.id}: metadata only, no tensors.`,
        ...(gguf?.context_length ? { [`${architecture}.context_length`]: gguf.context_length } : {}),
        ...(gguf?.chat_template ? { "tokenizer.chat_template": gguf.chat_template } : {}),
      }),
    });
  }
  files.push({ path: "README.md", content: Buffer.from(demoCard(model, ggufFiles.length > 0)) });
  return files;
}

/** What seeding asks of the catalogue: its models, and where it records the demo copies it made. */
export interface SeedCatalogue {
  list(query: ModelListQuery): Promise<ModelListPage>;
  recordDemoCopy(copy: {
    repoKey: number;
    originalUrl: string;
    seededCommit: string;
    originalCreatedAt?: string;
  }): Promise<void>;
}

export interface SeedOptions {
  /**
   * The original's creation date as the catalogue's source states it (its record's `createdAt`), undefined
   * when it does not: a stored model's `createdAt` may be when it was imported, which is no date of the
   * original's.
   */
  originalCreatedAt?: (modelId: string) => string | undefined;
}

/**
 * Makes every catalogue model that has no repository yet into one (its demo copy), recorded as such.
 * Idempotent: a model that already has its repository is left alone. Returns how many were created.
 */
export async function seedRepositories(
  catalogue: SeedCatalogue,
  repos: RepoService,
  options: SeedOptions = {},
): Promise<number> {
  let created = 0;
  let after: ModelListQuery["after"];
  for (;;) {
    const page = await catalogue.list({ sort: "createdAt", direction: 1, limit: 200, after });
    for (const model of page.models) {
      const existing = await repos.find("model", model.id);
      if (existing && !existing.moved) continue;
      const repo = await repos.adoptModel(model.id, demoFiles(model), {
        private: model.private ?? false,
        gated: model.gated ?? false,
        createdAt: model.createdAt,
        title: `Demo copy of ${model.id}`,
      });
      if (!repo) continue;
      const seeded = await repos.resolve(repo, "main");
      if (seeded) {
        await catalogue.recordDemoCopy({
          repoKey: repo.key,
          originalUrl: `${PUBLIC_HUB}/${model.id}`,
          seededCommit: seeded.commitOid,
          originalCreatedAt: options.originalCreatedAt?.(model.id),
        });
      }
      created++;
    }
    const last = page.models.at(-1);
    if (!page.hasMore || !last) return created;
    after = { value: last.createdAt, id: last.id };
  }
}
