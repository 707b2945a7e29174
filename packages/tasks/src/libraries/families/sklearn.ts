import type { ModelData } from "../../model-data.js";
import { MESSAGE_TITLE, SKLEARN_MODEL_FILE_MISSING } from "../messages.js";
import { comment, py } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** The file a plain (non-skops) scikit-learn repository holds its estimator in. */
export const SKLEARN_DEFAULT_FILE = "sklearn_model.joblib";

const TRUST_WARNING = py`# Pickle and joblib files can run code when loaded: only load them from sources you trust.
# See https://skops.readthedocs.io/en/stable/persistence.html`;

/**
 * scikit-learn. Repositories made with skops name their file and format in config.json
 * (sklearn.model.file, sklearn.model_format: "skops" or "pickle"); others hold sklearn_model.joblib.
 */
export function sklearnSnippets(model: ModelData): LibrarySnippet[] {
  if (!model.tags.includes("skops")) {
    return [
      snippet(
        py`from huggingface_hub import hf_hub_download
import joblib

model = joblib.load(hf_hub_download(${model.id}, ${SKLEARN_DEFAULT_FILE}))
${TRUST_WARNING}`,
        "Load the estimator",
      ),
    ];
  }
  const file = model.config?.sklearn?.model?.file;
  if (!file) return [snippet(comment("python", SKLEARN_MODEL_FILE_MISSING), MESSAGE_TITLE)];
  if (model.config?.sklearn?.model_format === "pickle") {
    return [
      snippet(
        py`from huggingface_hub import hf_hub_download
import joblib

model = joblib.load(hf_hub_download(${model.id}, ${file}))
${TRUST_WARNING}`,
        "Load the estimator (pickle)",
      ),
    ];
  }
  return [
    snippet(
      py`from huggingface_hub import hf_hub_download
from skops.io import get_untrusted_types, load

path = hf_hub_download(${model.id}, ${file})
# Review the types the file would create before trusting them.
unknown_types = get_untrusted_types(file=path)
model = load(path, trusted=unknown_types)`,
      "Load the estimator (skops)",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const SKLEARN_LIBRARIES = {
  sklearn: {
    prettyLabel: "Scikit-learn",
    repoName: "Scikit-learn",
    repoUrl: "https://github.com/scikit-learn/scikit-learn",
    docsUrl: "https://skops.readthedocs.io/en/stable/",
    snippets: sklearnSnippets,
    filter: true,
    countDownloads: `path:"sklearn_model.joblib"`,
  },
} satisfies Record<string, ModelLibrary>;
