import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { exampleText } from "../examples.js";
import { fromPretrained, pipInstall } from "../kit.js";
import { comment, joinCode, py } from "../quote.js";
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

/** One loader, two library names. */
const glinerLoader = fromPretrained({
  pip: "gliner",
  module: "gliner",
  name: "GLiNER",
  usage: py`entities = model.predict_entities("Apple was founded by Steve Jobs in Cupertino.", ["person", "organization", "location"])`,
});

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
  "aviation-ner": {
    prettyLabel: "Aviation NER",
    repoName: "aviation_ner_sdr",
    repoUrl: "https://github.com/Boeing/aviation_ner_sdr",
    docsUrl: readme("https://github.com/Boeing/aviation_ner_sdr"),
    snippets: glinerLoader,
    filter: false,
    countDownloads: `path:"gliner_config.json"`,
  },
  bertopic: {
    prettyLabel: "BERTopic",
    repoName: "BERTopic",
    repoUrl: "https://github.com/MaartenGr/BERTopic",
    docsUrl: "https://maartengr.github.io/BERTopic/",
    snippets: fromPretrained({
      pip: "bertopic",
      module: "bertopic",
      name: "BERTopic",
      method: "load",
      variable: "topic_model",
    }),
    filter: true,
  },
  clipscope: researchRepo("clipscope", "https://github.com/Lewington-pitsos/clipscope", {
    snippets: clipscopeSnippets,
    countDownloads: `path_extension:"pt"`,
  }),
  colpali: {
    prettyLabel: "ColPali",
    repoName: "ColPali",
    repoUrl: "https://github.com/illuin-tech/colpali",
    docsUrl: readme("https://github.com/illuin-tech/colpali"),
    snippets: fromPretrained({ pip: "colpali-engine", module: "colpali_engine.models", name: "ColPali" }),
    filter: false,
    countDownloads: `path:"adapter_config.json"`,
  },
  comet: {
    prettyLabel: "COMET",
    repoName: "COMET",
    repoUrl: "https://github.com/Unbabel/COMET",
    docsUrl: "https://unbabel.github.io/COMET/html/index.html",
    snippets: cometSnippets,
    filter: false,
    countDownloads: `path:"hparams.yaml"`,
  },
  gliner: {
    prettyLabel: "GLiNER",
    repoName: "GLiNER",
    repoUrl: "https://github.com/urchade/GLiNER",
    docsUrl: readme("https://github.com/urchade/GLiNER"),
    snippets: glinerLoader,
    filter: false,
    countDownloads: `path:"gliner_config.json"`,
  },
  gliner2: {
    prettyLabel: "GLiNER2",
    repoName: "GLiNER2",
    repoUrl: "https://github.com/fastino-ai/GLiNER2",
    docsUrl: readme("https://github.com/fastino-ai/GLiNER2"),
    snippets: fromPretrained({ pip: "gliner2", module: "gliner2", name: "GLiNER2" }),
    filter: false,
  },
  htrflow: researchRepo("HTRflow", "https://github.com/AI-Riksarkivet/htrflow", {
    docsUrl: "https://ai-riksarkivet.github.io/htrflow",
  }),
  model2vec: {
    prettyLabel: "Model2Vec",
    repoName: "model2vec",
    repoUrl: "https://github.com/MinishLab/model2vec",
    docsUrl: readme("https://github.com/MinishLab/model2vec"),
    snippets: fromPretrained({
      pip: "model2vec",
      module: "model2vec",
      name: "StaticModel",
      usage: py`embeddings = model.encode(["It's dangerous to go alone!", "It's a secret to everybody."])`,
    }),
    filter: false,
  },
  PyLate: {
    prettyLabel: "PyLate",
    repoName: "PyLate",
    repoUrl: "https://github.com/lightonai/pylate",
    docsUrl: "https://lightonai.github.io/pylate/",
    snippets: fromPretrained({
      pip: "pylate",
      module: "pylate.models",
      name: "ColBERT",
      method: null,
      idKeyword: "model_name_or_path",
      usage: py`queries_embeddings = model.encode(["What is a ColBERT model?"], is_query=True)`,
    }),
    filter: false,
  },
  relik: {
    prettyLabel: "Relik",
    repoName: "Relik",
    repoUrl: "https://github.com/SapienzaNLP/relik",
    docsUrl: readme("https://github.com/SapienzaNLP/relik"),
    snippets: fromPretrained({
      pip: "relik",
      module: "relik",
      name: "Relik",
      variable: "relik",
      usage: py`output = relik("Michael Jordan was one of the best players in the NBA.")`,
    }),
    filter: false,
  },
  setfit: {
    prettyLabel: "setfit",
    repoName: "setfit",
    repoUrl: "https://github.com/huggingface/setfit",
    docsUrl: "https://huggingface.co/docs/setfit",
    snippets: fromPretrained({
      pip: "setfit",
      module: "setfit",
      name: "SetFitModel",
      usage: py`predictions = model.predict(["I loved the spiderman movie!", "Pineapple on pizza is the worst."])`,
    }),
    filter: true,
  },
  "span-marker": {
    prettyLabel: "SpanMarker",
    repoName: "SpanMarkerNER",
    repoUrl: "https://github.com/tomaarsen/SpanMarkerNER",
    docsUrl: "https://huggingface.co/docs/hub/span_marker",
    snippets: fromPretrained({
      pip: "span_marker",
      module: "span_marker",
      name: "SpanMarkerModel",
      usage: py`entities = model.predict("Amelia Earhart flew her single engine Lockheed Vega 5B across the Atlantic to Paris.")`,
    }),
    filter: true,
  },
  swarmformer: {
    prettyLabel: "SwarmFormer",
    repoName: "SwarmFormer",
    repoUrl: "https://github.com/takara-ai/SwarmFormer",
    docsUrl: readme("https://github.com/takara-ai/SwarmFormer"),
    snippets: fromPretrained({ pip: "swarmformer", module: "swarmformer", name: "SwarmFormerModel" }),
    filter: false,
  },
} satisfies Record<string, ModelLibrary>;
