import type { ModelData } from "../../model-data.js";
import { pipInstall } from "../kit.js";
import { MESSAGE_TITLE, UNKNOWN_MODEL_TYPE } from "../messages.js";
import { comment, py } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** adapter-transformers (Adapters): load the base model named in the config, then activate the adapter. */
export function adaptersSnippets(model: ModelData): LibrarySnippet[] {
  const base = model.config?.adapter_transformers?.model_name;
  if (!base) return [snippet(comment("python", UNKNOWN_MODEL_TYPE), MESSAGE_TITLE)];
  return [
    pipInstall(["adapters"]),
    snippet(
      py`from adapters import AutoAdapterModel

model = AutoAdapterModel.from_pretrained(${base})
model.load_adapter(${model.id}, set_active=True)`,
      "Load the adapter",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const ADAPTERS_LIBRARIES = {
  "adapter-transformers": {
    prettyLabel: "Adapters",
    repoName: "adapters",
    repoUrl: "https://github.com/adapter-hub/adapters",
    docsUrl: "https://docs.adapterhub.ml/",
    snippets: adaptersSnippets,
    filter: true,
    countDownloads: `path:"adapter_config.json"`,
  },
} satisfies Record<string, ModelLibrary>;
