import type { ModelData } from "../model-data.js";
import type { PipelineType } from "../pipelines.js";

/** Shell commands to copy: every block is POSIX shell in which every model-derived value is quoted. */
export interface LocalAppSnippet {
  title: string;
  language: "sh";
  /** Installation, run once. */
  setup?: string;
  /** Commands to run, one copyable block each (e.g. start a server, then call it). */
  content: string[];
}

/** Where the hub serves files: snippets that download a file build `{hubUrl}/{id}/resolve/main/{path}`. */
export interface LocalAppOptions {
  hubUrl?: string;
}

interface LocalAppBase {
  /** Name on the "Use this model" button. */
  prettyLabel: string;
  docsUrl: string;
  /** The task the app is mainly for. */
  mainTask: PipelineType;
  /** The app only runs on macOS: the page shows a "macOS only" pill. */
  macOSOnly?: boolean;
  /** Whether the app can run this model, and so appears on its page. */
  displayOnModelPage: (model: ModelData) => boolean;
}

/** An app driven from the terminal. `quantFilePath` is the GGUF file picked on the page, if any. */
export interface SnippetLocalApp extends LocalAppBase {
  kind: "snippet";
  snippet: (model: ModelData, quantFilePath?: string, options?: LocalAppOptions) => LocalAppSnippet[];
}

/** A desktop app that opens the model from a link. */
export interface DeeplinkLocalApp extends LocalAppBase {
  kind: "deeplink";
  deeplink: (model: ModelData, quantFilePath?: string) => URL;
}

export type LocalApp = SnippetLocalApp | DeeplinkLocalApp;
