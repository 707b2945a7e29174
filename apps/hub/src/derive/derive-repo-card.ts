import type { BlobStore } from "../storage/blob-store.js";
import { cardSource, type DerivableFile } from "./derive-model.js";
import { parseFrontMatter } from "./front-matter.js";

/** What a dataset's or space's listing row and filters read from its README's front matter. */
export interface DerivedRepoCard {
  cardData?: Record<string, unknown>;
  /** The README's body after its front matter: what search indexes (search/search-migration.ts). */
  cardText?: string;
  tags: string[];
  /** A space's SDK (`sdk:` in its card; `static` when the card names none). Undefined for datasets. */
  sdk?: string;
}

/**
 * Card fields the public hub turns into `field:value` tags of a dataset, the ones huggingface_hub's
 * `list_datasets(language=..., task_categories=...)` sends back as `filter=field:value`.
 */
const DATASET_TAG_FIELDS = [
  "license",
  "language",
  "task_categories",
  "task_ids",
  "size_categories",
  "multilinguality",
  "language_creators",
  "annotations_creators",
  "source_datasets",
] as const;

const strings = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");

/** A space's SDK as its card says, `static` when it says none (as the public hub answers). */
export function spaceSdk(card: Record<string, unknown> | undefined): string {
  return typeof card?.sdk === "string" && card.sdk ? card.sdk : "static";
}

/**
 * The tags the public hub gives a dataset or space from its card: a space's SDK, the card's `tags`, then
 * `license:` and `language:` (and a dataset's other `field:value` tags). Without duplicates, in that order.
 */
export function repoCardTags(type: "dataset" | "space", card: Record<string, unknown> | undefined): string[] {
  const tags: string[] = type === "space" ? [spaceSdk(card)] : [];
  if (card) {
    tags.push(...strings(card.tags));
    const fields = type === "dataset" ? DATASET_TAG_FIELDS : (["license", "language"] as const);
    for (const field of fields) tags.push(...strings(card[field]).map((value) => `${field}:${value}`));
  }
  return [...new Set(tags)];
}

/** Derives a dataset's or space's listing data from the README.md of a commit's files. */
export async function deriveRepoCard(
  blobs: BlobStore,
  type: "dataset" | "space",
  files: readonly DerivableFile[],
): Promise<DerivedRepoCard> {
  const readme = await cardSource(
    blobs,
    files.find((file) => file.path === "README.md"),
  );
  const card = readme === undefined ? undefined : parseFrontMatter(readme);
  const cardData = card?.data;
  return {
    ...(cardData ? { cardData } : {}),
    ...(card ? { cardText: card.body } : {}),
    tags: repoCardTags(type, cardData),
    ...(type === "space" ? { sdk: spaceSdk(cardData) } : {}),
  };
}
