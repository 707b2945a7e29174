import type { ModelData } from "../model-data.js";
import { modelName } from "./examples.js";
import { type Code, comment, joinCode, py, pythonIdentifier, pythonName, sh } from "./quote.js";
import { type LibrarySnippet, type LibrarySnippetBuilder, snippet } from "./types.js";

/**
 * Builders shared by many libraries. Most libraries load a model the same way (import a class, call a
 * class method with the repository id), so they are described by data and turned into code here.
 */

/** The first repository file with one of `extensions`, else `fallback` (the library's usual file name). */
export function repoFile(model: ModelData, extensions: readonly string[], fallback: string): string {
  const lower = extensions.map((e) => e.toLowerCase());
  return (
    model.siblings?.find((s) => lower.some((e) => s.rfilename.toLowerCase().endsWith(e)))?.rfilename ??
    fallback
  );
}

/** `pip install ...` as a shell snippet; package specs are our own constants. */
export function pipInstall(packages: readonly string[]): LibrarySnippet {
  return snippet(sh`pip install ${packages}`, "Install");
}

export interface PretrainedLoader {
  /** pip requirement(s) to install the library, e.g. "gliner" or "git+https://github.com/org/repo". */
  pip?: string | readonly string[];
  /** Module to import from, e.g. "gliner.model". */
  module: string;
  /** Name imported from the module: usually a class. */
  name: string;
  /** Method called on `name` with the repository id; `null` calls `name(...)` itself. Default from_pretrained. */
  method?: string | null;
  /** Variable the loaded object is assigned to. Default "model". */
  variable?: string;
  /** Prefix some libraries expect in front of the id, e.g. "hf-hub:" or "hf://". */
  idPrefix?: string;
  /** Keyword name for the id when the library takes it as a keyword, e.g. "repo_id". */
  idKeyword?: string;
  /** Extra static arguments after the id, written as code. */
  extraArgs?: Code<"python">;
  /** Static usage lines appended after loading. */
  usage?: Code<"python">;
}

/** The `from module import name` + `variable = name.method(id)` code of a loader, for one model id. */
export function pretrainedCode(loader: PretrainedLoader, model: ModelData): Code<"python"> {
  const name = pythonIdentifier(loader.name, "Model");
  const variable = pythonIdentifier(loader.variable ?? "model", "model");
  const callee =
    loader.method === null
      ? name
      : py`${name}.${pythonIdentifier(loader.method ?? "from_pretrained", "from_pretrained")}`;
  const repo = `${loader.idPrefix ?? ""}${model.id}`;
  const idArg = loader.idKeyword ? py`${pythonIdentifier(loader.idKeyword, "repo_id")}=${repo}` : py`${repo}`;
  const args = loader.extraArgs ? py`${idArg}, ${loader.extraArgs}` : idArg;
  const lines = [
    py`from ${pythonName(loader.module)} import ${name}`,
    py``,
    py`${variable} = ${callee}(${args})`,
  ];
  if (loader.usage) lines.push(loader.usage);
  return joinCode("python", lines);
}

/** A snippet builder from a loader description: an install line when known, then the loading code. */
export function fromPretrained(loader: PretrainedLoader): LibrarySnippetBuilder {
  return (model) => {
    const out: LibrarySnippet[] = [];
    if (loader.pip !== undefined)
      out.push(pipInstall(typeof loader.pip === "string" ? [loader.pip] : loader.pip));
    out.push(snippet(pretrainedCode(loader, model), "Load the model"));
    return out;
  };
}

/**
 * For libraries that run a downloaded checkpoint with their own scripts (no loading API on the Hub):
 * fetch the repository files, then follow the library's instructions.
 */
export function downloadWeights(instructionsUrl: string): LibrarySnippetBuilder {
  const builder: LibrarySnippetBuilder = (model) => [
    snippet(sh`hf download ${model.id} --local-dir ${modelName(model)}`, "Download the weights"),
    snippet(
      joinCode("python", [
        py`from huggingface_hub import snapshot_download`,
        py``,
        py`local_dir = snapshot_download(repo_id=${model.id})`,
        comment("python", `Run the files in local_dir as described in ${instructionsUrl}`),
      ]),
      "Download the weights from Python",
    ),
  ];
  DOWNLOAD_ONLY.add(builder);
  return builder;
}

const DOWNLOAD_ONLY = new WeakSet<LibrarySnippetBuilder>();

/** Whether a builder only downloads the weights (the library has no loading API), for the catalogue counts. */
export function isDownloadOnly(builder: LibrarySnippetBuilder): boolean {
  return DOWNLOAD_ONLY.has(builder);
}

/** Clone the code base, fetch the weights into the folder its scripts read, run its entry point. */
export function cloneDownloadRun(
  repoUrl: string,
  weightsDir: string,
  run: Code<"sh">,
  install: Code<"sh"> = sh`pip install -r requirements.txt`,
): LibrarySnippetBuilder {
  const folder = repoUrl.slice(repoUrl.lastIndexOf("/") + 1);
  return (model) => [
    snippet(
      sh`git clone ${repoUrl}
cd ${folder}
${install}
hf download ${model.id} --local-dir ${weightsDir}
${run}`,
      "Download and run",
    ),
  ];
}
