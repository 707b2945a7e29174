import type { ModelData } from "../model-data.js";
import type { Code, CodeLanguage } from "./quote.js";

/** Languages library snippets are written in (spec §3: python, js, sh). */
export type SnippetLanguage = CodeLanguage;

/** One copyable block of code shown on a model page. */
export interface LibrarySnippet {
  language: SnippetLanguage;
  content: string;
  /** Short caption, e.g. "Load the model" or "Use a pipeline". */
  title?: string;
}

/** Produces the loading code of one library for one model record. Pure; never throws on odd records. */
export type LibrarySnippetBuilder = (model: ModelData) => LibrarySnippet[];

/** One model library the hub knows, keyed by its `library_name` value (spec §3 library catalogue entry). */
export interface ModelLibrary {
  /** Name shown in tags and on the "Use this model" button. */
  prettyLabel: string;
  /** Name of the library's code repository. */
  repoName: string;
  /** URL of the library's code repository (usually on GitHub). */
  repoUrl: string;
  /** URL of the library's documentation. */
  docsUrl?: string;
  /** Loading code for a model of this library. */
  snippets?: LibrarySnippetBuilder;
  /** Whether the models listing offers this library as a filter. */
  filter: boolean;
  /**
   * File-path query that defines what counts as a download of a model of this library, e.g.
   * `path:"model.safetensors" OR path_extension:"pt"`. Without it, the hub's default config files count.
   */
  countDownloads?: string;
}

/** Turns a code fragment into a snippet; the language comes from the fragment itself. */
export function snippet(code: Code, title?: string): LibrarySnippet {
  return title === undefined
    ? { language: code.language, content: code.text }
    : { language: code.language, content: code.text, title };
}
