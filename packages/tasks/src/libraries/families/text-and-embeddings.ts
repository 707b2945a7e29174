import type { ModelData } from "../../model-data.js";
import { researchRepo } from "../catalogue/define.js";
import { exampleText } from "../examples.js";
import { comment, joinCode, py } from "../quote.js";
import { fromPretrained, pipInstall } from "../snippets/kit.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Text encoders and text classifiers: entries and loading code. */

/** jev-style answers typed questions about a text: each question is declared with a helper of the library. */
function jevStyleSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["jev-style[torch]"]),
    snippet(
      py`from jev_style import JevStyle, choice, noul

js = JevStyle.from_pretrained(${model.id})
out = js.decide(${exampleText(model, "I was charged twice for one order.")}, {
    "billing": noul("This message is about billing."),
    "team": choice("Which team should handle it?", ["billing", "shipping", "tech"]),
})
print(out["answers"]["team"]["choice"])`,
      "Ask questions about a text",
    ),
  ];
}

export const TEXT_AND_EMBEDDING_LIBRARIES = {
  aneforge: {
    prettyLabel: "ANEForge",
    repoName: "ANEForge",
    repoUrl: "https://github.com/sbryngelson/ANEForge",
    docsUrl: "https://aneforge.readthedocs.io",
    // A drop-in for sentence-transformers that runs the encoder on the Apple Neural Engine.
    snippets: fromPretrained({
      module: "aneforge.sentence_transformers",
      name: "SentenceTransformer",
      method: null,
      usage: py`embeddings = model.encode(["Encoded on the Neural Engine."], normalize_embeddings=True)`,
    }),
    filter: false,
  },
  gliformer: researchRepo("GLiFormer", "https://github.com/Knowledgator/GLiFormer", {
    countDownloads: `path:"gliner_config.json"`,
  }),
  "jev-style": {
    prettyLabel: "jev-style",
    repoName: "jev-style",
    repoUrl: "https://github.com/lawrence3699/jev-style",
    docsUrl: "https://github.com/lawrence3699/jev-style#readme",
    snippets: jevStyleSnippets,
    filter: false,
    countDownloads: `path_extension:"gguf" OR path:"config.json"`,
  },
  zeromodels: {
    prettyLabel: "ZeroModels",
    repoName: "ZeroModels",
    repoUrl: "https://github.com/IMvision12/ZeroModels",
    docsUrl: "https://imvision12.github.io/ZeroModels/",
    // Pure Keras 3: the backend (jax, torch or tensorflow) comes from KERAS_BACKEND.
    snippets: fromPretrained({
      pip: "zeromodels",
      module: "zeromodels",
      name: "AutoZModel",
      method: "from_weights",
    }),
    filter: false,
    countDownloads: `path:"model.weights.h5" OR path:"model.weights.json"`,
  },
} satisfies Record<string, ModelLibrary>;

export function cometSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["unbabel-comet"]),
    snippet(
      py`from comet import download_model, load_from_checkpoint

model = load_from_checkpoint(download_model(${model.id}))
data = [{"src": "Dem Feuer konnte Einhalt geboten werden", "mt": "The fire could be stopped", "ref": "They were able to control the fire."}]
output = model.predict(data, batch_size=8, gpus=1)`,
      "Score translations",
    ),
  ];
}

/** clipscope sparse autoencoders are single `.pt` files inside a repository; the loader takes both names. */
export function clipscopeSnippets(model: ModelData): LibrarySnippet[] {
  const file = model.siblings?.find((s) => s.rfilename.toLowerCase().endsWith(".pt"))?.rfilename;
  const lines = [py`from clipscope import TopKSAE`, py``];
  if (file === undefined)
    lines.push(comment("python", "Name one of the repository's .pt checkpoints as filename"));
  lines.push(
    py`sae = TopKSAE.from_pretrained(repo_id=${model.id}, filename=${file ?? "checkpoint.pt"}, device="cpu")`,
  );
  return [pipInstall(["clipscope"]), snippet(joinCode("python", lines), "Load the sparse autoencoder")];
}
