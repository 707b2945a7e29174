import { isDownloadOnly } from "./kit.js";
import { ALL_MODEL_LIBRARY_KEYS, MODEL_LIBRARIES } from "./model-libraries.js";
import type { ModelLibrary } from "./types.js";

export interface LibraryCatalogueCounts {
  libraries: number;
  /** Libraries with any snippet builder. */
  withSnippets: number;
  /** Libraries whose snippets load the model with the library's own API (not only download the weights). */
  withLoadingCode: number;
  /** Libraries whose snippet only downloads the weights: they run checkpoints with their own scripts. */
  downloadOnly: number;
  /** Libraries with a documentation link. */
  withDocs: number;
  /** ...of which the link is the repository README, for projects whose README is their manual. */
  docsAreReadme: number;
  /** Libraries offered as filters in the models listing. */
  filters: number;
  /** Libraries that define what counts as a download. */
  withDownloadQuery: number;
}

/** The catalogue figures the package README reports. */
export function computeLibraryCounts(): LibraryCatalogueCounts {
  const entries: ModelLibrary[] = ALL_MODEL_LIBRARY_KEYS.map((key) => MODEL_LIBRARIES[key]);
  const count = (predicate: (entry: ModelLibrary) => boolean) => entries.filter(predicate).length;
  return {
    libraries: entries.length,
    withSnippets: count((e) => e.snippets !== undefined),
    withLoadingCode: count((e) => e.snippets !== undefined && !isDownloadOnly(e.snippets)),
    downloadOnly: count((e) => e.snippets !== undefined && isDownloadOnly(e.snippets)),
    withDocs: count((e) => e.docsUrl !== undefined),
    docsAreReadme: count(
      (e) => e.docsUrl !== undefined && (e.docsUrl.endsWith("#readme") || e.docsUrl === e.repoUrl),
    ),
    filters: count((e) => e.filter),
    withDownloadQuery: count((e) => e.countDownloads !== undefined),
  };
}
