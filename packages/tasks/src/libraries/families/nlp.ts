import type { ModelData } from "../../model-data.js";
import { exampleText, modelName } from "../examples.js";
import { pipInstall } from "../kit.js";
import { UNKNOWN_MODEL_TYPE } from "../messages.js";
import { comment, isPythonIdentifier, py, pythonIdentifier, sh } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** Text-processing libraries whose loading differs from a plain `Class.from_pretrained(id)`. */

/** spaCy pipelines are published as wheels named after the repository. */
export function spacySnippets(model: ModelData): LibrarySnippet[] {
  const name = modelName(model);
  const wheel = `https://huggingface.co/${model.id}/resolve/main/${name}-any-py3-none-any.whl`;
  return [
    snippet(sh`pip install ${wheel}`, "Install the pipeline"),
    snippet(
      py`import spacy

nlp = spacy.load(${name})
doc = nlp(${exampleText(model)})
print([(ent.text, ent.label_) for ent in doc.ents])`,
      "Load the pipeline",
    ),
  ];
}

/** Flair: sequence taggers for token classification, text classifiers otherwise. */
export function flairSnippets(model: ModelData): LibrarySnippet[] {
  const classifier = model.pipeline_tag === "text-classification";
  const cls = pythonIdentifier(classifier ? "TextClassifier" : "SequenceTagger", "SequenceTagger");
  return [
    snippet(
      py`from flair.data import Sentence
from flair.models import ${cls}

model = ${cls}.load(${model.id})
sentence = Sentence(${exampleText(model)})
model.predict(sentence)
print(sentence)`,
      "Load the model",
    ),
  ];
}

export function stanzaSnippets(model: ModelData): LibrarySnippet[] {
  // Stanza repositories are named stanza-<language code>; the code is what stanza.download expects.
  const language = modelName(model).replace(/^stanza-/, "");
  return [
    snippet(
      py`import stanza

stanza.download(${language})
nlp = stanza.Pipeline(${language})
doc = nlp(${exampleText(model)})
print(doc)`,
      "Load the pipeline",
    ),
  ];
}

export function allennlpSnippets(model: ModelData): LibrarySnippet[] {
  const predictor = py`import allennlp_models
from allennlp.predictors.predictor import Predictor

predictor = Predictor.from_path(${`hf://${model.id}`})`;
  if (model.pipeline_tag === "question-answering" || model.tags.includes("question-answering")) {
    return [
      snippet(
        py`${predictor}
predictions = predictor.predict_json({"passage": "My name is Wolfgang and I live in Berlin.", "question": ${exampleText(model, "Where do I live?")}})`,
        "Answer a question",
      ),
    ];
  }
  return [snippet(predictor, "Load the predictor")];
}

export function fasttextSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import fasttext
from huggingface_hub import hf_hub_download

model = fasttext.load_model(hf_hub_download(${model.id}, "model.bin"))
print(model.predict(${exampleText(model)}))`,
      "Load the model",
    ),
  ];
}

export function paddlenlpSnippets(model: ModelData): LibrarySnippet[] {
  const architecture = model.config?.architectures?.[0];
  const known = isPythonIdentifier(architecture);
  const cls = pythonIdentifier(known ? architecture : undefined, "AutoModel");
  const lines = py`from paddlenlp.transformers import AutoTokenizer, ${cls}

tokenizer = AutoTokenizer.from_pretrained(${model.id}, from_hf_hub=True)
model = ${cls}.from_pretrained(${model.id}, from_hf_hub=True)`;
  return [snippet(known ? lines : py`${comment("python", UNKNOWN_MODEL_TYPE)}\n${lines}`, "Load the model")];
}

export function edsnlpSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["edsnlp"]),
    snippet(
      py`import edsnlp

nlp = edsnlp.load(${model.id})
doc = nlp(${exampleText(model)})
print(doc.ents)`,
      "Load the pipeline",
    ),
  ];
}

export function hezarSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["hezar"]),
    snippet(
      py`from hezar.models import Model

model = Model.load(${model.id})
print(model.predict(${exampleText(model)}))`,
      "Load the model",
    ),
  ];
}

export function lightningIrSnippets(model: ModelData): LibrarySnippet[] {
  const cross = model.tags.includes("cross-encoder");
  const cls = pythonIdentifier(cross ? "CrossEncoderModule" : "BiEncoderModule", "BiEncoderModule");
  return [
    pipInstall(["lightning-ir"]),
    snippet(
      py`from lightning_ir import ${cls}

model = ${cls}(${model.id})
print(model.score(${exampleText(model, "What is a language model?")}, ["first document", "second document"]))`,
      "Score documents",
    ),
  ];
}

export function bm25sSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["bm25s[huggingface]"]),
    snippet(
      py`import bm25s
from bm25s.hf import BM25HF

retriever = BM25HF.load_from_hub(${model.id}, load_corpus=True)
results, scores = retriever.retrieve(bm25s.tokenize(${exampleText(model, "a cat is a feline")}), k=2)`,
      "Load the index",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const NLP_LIBRARIES = {
  allennlp: {
    prettyLabel: "AllenNLP",
    repoName: "AllenNLP",
    repoUrl: "https://github.com/allenai/allennlp",
    docsUrl: "https://huggingface.co/docs/hub/allennlp",
    snippets: allennlpSnippets,
    filter: true,
  },
  bm25s: {
    prettyLabel: "BM25S",
    repoName: "bm25s",
    repoUrl: "https://github.com/xhluca/bm25s",
    docsUrl: "https://bm25s.github.io/",
    snippets: bm25sSnippets,
    filter: false,
    countDownloads: `path:"params.index.json"`,
  },
  edsnlp: {
    prettyLabel: "EDS-NLP",
    repoName: "edsnlp",
    repoUrl: "https://github.com/aphp/edsnlp",
    docsUrl: "https://aphp.github.io/edsnlp/latest/",
    snippets: edsnlpSnippets,
    filter: false,
    countDownloads: `path_filename:"config" AND path_extension:"cfg"`,
  },
  fasttext: {
    prettyLabel: "fastText",
    repoName: "fastText",
    repoUrl: "https://github.com/facebookresearch/fastText",
    docsUrl: "https://fasttext.cc/docs/en/python-module.html",
    snippets: fasttextSnippets,
    filter: true,
    countDownloads: `path_extension:"bin"`,
  },
  flair: {
    prettyLabel: "Flair",
    repoName: "Flair",
    repoUrl: "https://github.com/flairNLP/flair",
    docsUrl: "https://flairnlp.github.io/docs/intro",
    snippets: flairSnippets,
    filter: true,
    countDownloads: `path:"pytorch_model.bin"`,
  },
  hezar: {
    prettyLabel: "Hezar",
    repoName: "Hezar",
    repoUrl: "https://github.com/hezarai/hezar",
    docsUrl: "https://hezarai.github.io/hezar",
    snippets: hezarSnippets,
    filter: false,
    countDownloads: `path:"model_config.yaml" OR path:"embedding/embedding_config.yaml"`,
  },
  "lightning-ir": {
    prettyLabel: "Lightning IR",
    repoName: "Lightning IR",
    repoUrl: "https://github.com/webis-de/lightning-ir",
    docsUrl: "https://webis-de.github.io/lightning-ir/",
    snippets: lightningIrSnippets,
    filter: false,
  },
  paddlenlp: {
    prettyLabel: "paddlenlp",
    repoName: "PaddleNLP",
    repoUrl: "https://github.com/PaddlePaddle/PaddleNLP",
    docsUrl: "https://huggingface.co/docs/hub/paddlenlp",
    snippets: paddlenlpSnippets,
    filter: true,
    countDownloads: `path:"model_config.json"`,
  },
  spacy: {
    prettyLabel: "spaCy",
    repoName: "spaCy",
    repoUrl: "https://github.com/explosion/spaCy",
    docsUrl: "https://huggingface.co/docs/hub/spacy",
    snippets: spacySnippets,
    filter: true,
    countDownloads: `path_extension:"whl"`,
  },
  stanza: {
    prettyLabel: "Stanza",
    repoName: "stanza",
    repoUrl: "https://github.com/stanfordnlp/stanza",
    docsUrl: "https://stanfordnlp.github.io/stanza/",
    snippets: stanzaSnippets,
    filter: true,
    countDownloads: `path:"models/default.zip"`,
  },
} satisfies Record<string, ModelLibrary>;
