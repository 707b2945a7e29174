import { otherHubUrl } from "../hub-endpoint.js";
import type { LibrarySnippetOptions } from "./model-libraries.js";
import { pointAtHub } from "./point-at-hub.js";
import { joinCode, py, sh } from "./quote.js";
import { type LibrarySnippet, snippet } from "./types.js";

/**
 * How to use a dataset repository: load it with 🤗 datasets, or fetch its files with `hf download`. On another
 * hub than huggingface.co both say first how to reach it (point-at-hub.ts), as the model snippets do.
 */
export function getDatasetSnippets(datasetId: string, options: LibrarySnippetOptions = {}): LibrarySnippet[] {
  const folder = datasetId.slice(datasetId.indexOf("/") + 1) || "dataset";
  const snippets = [
    snippet(
      joinCode("python", [
        py`from datasets import load_dataset`,
        py``,
        py`dataset = load_dataset(${datasetId})`,
        py`print(dataset)`,
      ]),
      "Load with datasets",
    ),
    snippet(sh`hf download ${datasetId} --repo-type dataset --local-dir ${folder}`, "Download the files"),
  ];
  const hubUrl = otherHubUrl(options.hubUrl);
  return hubUrl === undefined ? snippets : snippets.map((item) => pointAtHub(item, datasetId, hubUrl));
}
