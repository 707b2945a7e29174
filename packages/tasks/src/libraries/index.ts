export { getDatasetSnippets } from "./dataset-snippets.js";
export { LIBRARY_TASK_MAPPING, libraryServesTask } from "./library-to-tasks.js";
export * from "./messages.js";
export {
  ALL_MODEL_LIBRARY_KEYS,
  FILTERABLE_MODEL_LIBRARY_KEYS,
  getLibrarySnippets,
  getModelLibrary,
  isModelLibraryKey,
  type LibrarySnippetOptions,
  MODEL_LIBRARIES,
  type ModelLibraryKey,
} from "./model-libraries.js";
export {
  comment as libraryComment,
  SnippetTemplateError,
  TemplatePlacementError,
} from "./quote.js";
export type { LibrarySnippet, LibrarySnippetBuilder, ModelLibrary, SnippetLanguage } from "./types.js";
