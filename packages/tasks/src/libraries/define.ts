import { downloadWeights } from "./kit.js";
import type { ModelLibrary } from "./types.js";

/** A repository README used as the documentation link, for projects whose README is their manual. */
export function readme(repoUrl: string): string {
  return repoUrl.startsWith("https://github.com/") ? `${repoUrl}#readme` : repoUrl;
}

/**
 * A research code base that runs checkpoints with its own scripts: the snippet downloads the weights and
 * points at the README, which is also the docs link. Not offered as a filter.
 */
export function researchRepo(
  prettyLabel: string,
  repoUrl: string,
  extra: Partial<Omit<ModelLibrary, "prettyLabel" | "repoUrl">> = {},
): ModelLibrary {
  return {
    prettyLabel,
    repoName: prettyLabel,
    repoUrl,
    docsUrl: readme(repoUrl),
    snippets: downloadWeights(extra.docsUrl ?? readme(repoUrl)),
    filter: false,
    ...extra,
  };
}
