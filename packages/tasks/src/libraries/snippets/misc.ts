import type { ModelData } from "../../model-data.js";
import { exampleText } from "../examples.js";
import { py } from "../quote.js";
import { type LibrarySnippet, snippet } from "../types.js";
import { pipInstall } from "./kit.js";

/** Libraries with a loading call of their own that fits no family. */

export function fastaiSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from huggingface_hub import from_pretrained_fastai

learn = from_pretrained_fastai(${model.id})`,
      "Load the learner",
    ),
  ];
}

export function anemoiSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["anemoi-inference"]),
    snippet(
      py`from anemoi.inference.config.run import RunConfiguration
from anemoi.inference.runners.default import DefaultRunner

config = RunConfiguration(checkpoint={"huggingface": ${model.id}})
runner = DefaultRunner(config)`,
      "Create a runner",
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

export function cartesiaMlxSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import cartesia_mlx as cmx
import mlx.core as mx

model = cmx.from_pretrained(${model.id})
model.set_dtype(mx.float32)
for text in model.generate(${exampleText(model, "Rene Descartes was")}, max_tokens=200):
    print(text, end="", flush=True)`,
      "Generate text",
    ),
  ];
}

export function timesfmSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["timesfm"]),
    snippet(
      py`import timesfm

tfm = timesfm.TimesFm(
    hparams=timesfm.TimesFmHparams(backend="cpu", per_core_batch_size=32, horizon_len=128),
    checkpoint=timesfm.TimesFmCheckpoint(huggingface_repo_id=${model.id}),
)
point_forecast, quantile_forecast = tfm.forecast([[0.0, 1.0, 2.0, 3.0]], freq=[0])`,
      "Forecast",
    ),
  ];
}

/** Keras SavedModel repositories published for Google's health foundation models. */
export function savedModelKerasSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from huggingface_hub import from_pretrained_keras

model = from_pretrained_keras(${model.id})
infer = model.signatures["serving_default"]`,
      "Load the model",
    ),
  ];
}

export function collectorVisionSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/HanClinto/CollectorVision", "huggingface_hub"]),
    snippet(
      py`import collector_vision as cvg
from huggingface_hub import hf_hub_download

checkpoint = hf_hub_download(repo_id=${model.id}, filename="model.onnx")
embedder = cvg.NeuralEmbedder(checkpoint)  # or cvg.NeuralCornerDetector(checkpoint) for detector models`,
      "Load the model",
    ),
  ];
}

export function scviToolsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["scvi-tools"]),
    snippet(
      py`from scvi.hub import HubModel

hub_model = HubModel.pull_from_huggingface_hub(repo_name=${model.id}, cache_dir="scvi_hub")
model = hub_model.model  # the trained scvi-tools model, with its AnnData`,
      "Load the model",
    ),
  ];
}

/** SAP's tabular foundation model: its estimators fetch the checkpoint from the Hub themselves. */
export function sapRptSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/SAP-samples/sap-rpt-1-oss"]),
    snippet(
      py`from sap_rpt_oss import SAP_RPT_OSS_Classifier

clf = SAP_RPT_OSS_Classifier(max_context_size=8192, bagging=8)
# clf.fit(X_train, y_train); clf.predict(X_test)`,
      "Create a classifier",
    ),
  ];
}
