import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { fromPretrained, pipInstall, repoFile } from "../kit.js";
import { py, pythonIdentifier } from "../quote.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Tabular foundation models, forecasters and vehicle energy models. */

/** FlexTab's estimators fetch their published weights themselves and follow the scikit-learn API. */
function flexTabSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/SAP-samples/flextab"]),
    snippet(
      py`from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import train_test_split

from flextab import FlexTabClassifier

X, y = load_breast_cancer(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=42)

# A smaller context or fewer bagging rounds use less memory, at some cost in accuracy.
classifier = FlexTabClassifier(max_context_size=8192, bagging=8)
classifier.fit(X_train, y_train)
predictions = classifier.predict(X_test)`,
      "Classify a table (FlexTabRegressor and FlexTabMatcher work alike)",
    ),
  ];
}

/** A RouteE registry on the Hub holds many vehicle models; one is picked by its id from the query. */
function routeePowertrainSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["routee.powertrain"]),
    snippet(
      py`import pandas as pd
import routee.powertrain as pt
from routee.powertrain.registry import HFRegistry

registry = HFRegistry(repo_id=${model.id})
print(pt.query_available_models(registry=registry))  # filter with make=, model=, year=...

# Ids read "<make>/<vehicle>/<year>/<configuration>"; pick one from the list above.
vehicle = pt.load_model("tesla/model_3_bev/2022/rf_c3326385", registry=registry)
links = pd.DataFrame({"distance": [0.1, 0.2], "speed_mph": [30, 55], "grade_percent": [-2.0, 1.0]})
energy = vehicle.predict(links)`,
      "Predict the energy a trip uses",
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

export function tabpfnSnippets(model: ModelData): LibrarySnippet[] {
  const regressor = /regress/i.test(model.id);
  const cls = pythonIdentifier(regressor ? "TabPFNRegressor" : "TabPFNClassifier", "TabPFNClassifier");
  return [
    pipInstall(["tabpfn"]),
    snippet(
      py`from huggingface_hub import hf_hub_download
from tabpfn import ${cls}

model = ${cls}(model_path=hf_hub_download(${model.id}, ${repoFile(model, [".ckpt"], "model.ckpt")}))
# model.fit(X_train, y_train); model.predict(X_test)`,
      "Load the model",
    ),
  ];
}

/** ConTextTab's estimator fetches SAP's checkpoint from the Hub itself. */
export function contexttabSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/SAP-samples/contexttab"]),
    snippet(
      py`from contexttab import ConTextTabClassifier

clf = ConTextTabClassifier(bagging=1, max_context_size=2048)
# clf.fit(X_train, y_train); clf.predict(X_test)`,
      "Create a classifier",
    ),
  ];
}

export const TABULAR_AND_FORECASTING_LIBRARIES = {
  causilo: researchRepo("Causilo", "https://github.com/nums-ai/causilo", {
    countDownloads: `path:"classifier/config.json" OR path:"regressor/config.json"`,
  }),
  ccpfn: researchRepo("CCPFN", "https://huggingface.co/Layer6/CCPFN", {
    countDownloads: `path_extension:"pt"`,
  }),
  flextab: {
    prettyLabel: "FlexTab",
    repoName: "FlexTab",
    repoUrl: "https://github.com/SAP-samples/flextab",
    docsUrl: "https://github.com/SAP-samples/flextab#readme",
    snippets: flexTabSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  "routee-powertrain": {
    prettyLabel: "RouteE-Powertrain",
    repoName: "RouteE-Powertrain",
    repoUrl: "https://github.com/NatLabRockies/routee-powertrain",
    docsUrl: "https://natlabrockies.github.io/routee-powertrain/",
    snippets: routeePowertrainSnippets,
    filter: false,
    countDownloads: `path_extension:"onnx" OR path_extension:"joblib"`,
  },
  "timee-ts": researchRepo("timee-ts", "https://github.com/liamsbhoo/timee", {
    countDownloads: `path:"model.safetensors"`,
  }),
  "tirex-2": researchRepo("TiRex-2", "https://github.com/NX-AI/tirex-2", {
    countDownloads: `path:"model-config.yaml"`,
  }),
  "chronos-forecasting": {
    prettyLabel: "Chronos",
    repoName: "chronos-forecasting",
    repoUrl: "https://github.com/amazon-science/chronos-forecasting",
    docsUrl: readme("https://github.com/amazon-science/chronos-forecasting"),
    snippets: fromPretrained({
      pip: "chronos-forecasting",
      module: "chronos",
      name: "BaseChronosPipeline",
      variable: "pipeline",
      extraArgs: py`device_map="cpu"`,
    }),
    filter: false,
  },
  contexttab: researchRepo("ConTextTab", "https://github.com/SAP-samples/contexttab", {
    countDownloads: `path_extension:"pt"`,
    snippets: contexttabSnippets,
  }),
  "granite-tsfm": {
    prettyLabel: "Granite TSFM",
    repoName: "granite-tsfm",
    repoUrl: "https://github.com/ibm-granite/granite-tsfm",
    docsUrl: readme("https://github.com/ibm-granite/granite-tsfm"),
    snippets: fromPretrained({
      pip: "granite-tsfm",
      module: "tsfm_public",
      name: "TinyTimeMixerForPrediction",
    }),
    filter: false,
  },
  "sap-rpt-1-oss": {
    prettyLabel: "SAP RPT-1 OSS",
    repoName: "sap-rpt-1-oss",
    repoUrl: "https://github.com/SAP-samples/sap-rpt-1-oss",
    docsUrl: readme("https://github.com/SAP-samples/sap-rpt-1-oss"),
    snippets: sapRptSnippets,
    filter: false,
  },
  "synthefy-migas": researchRepo("Migas", "https://github.com/Synthefy/synthefy-migas", {
    countDownloads: `path:"model.pt"`,
  }),
  tabpfn: researchRepo("TabPFN", "https://github.com/PriorLabs/TabPFN", {
    docsUrl: "https://priorlabs.ai/docs",
    snippets: tabpfnSnippets,
  }),
  timesfm: {
    prettyLabel: "TimesFM",
    repoName: "timesfm",
    repoUrl: "https://github.com/google-research/timesfm",
    docsUrl: readme("https://github.com/google-research/timesfm"),
    snippets: timesfmSnippets,
    filter: false,
    countDownloads: `path:"checkpoints/checkpoint_1100000/state/checkpoint" OR path:"checkpoints/checkpoint_2150000/state/checkpoint" OR path_extension:"ckpt"`,
  },
  tirex: {
    prettyLabel: "TiRex",
    repoName: "TiRex",
    repoUrl: "https://github.com/NX-AI/tirex",
    docsUrl: readme("https://github.com/NX-AI/tirex"),
    snippets: fromPretrained({ pip: "tirex-ts", module: "tirex", name: "load_model", method: null }),
    filter: false,
    countDownloads: `path_extension:"ckpt"`,
  },
  uni2ts: {
    prettyLabel: "Uni2TS",
    repoName: "uni2ts",
    repoUrl: "https://github.com/SalesforceAIResearch/uni2ts",
    docsUrl: readme("https://github.com/SalesforceAIResearch/uni2ts"),
    snippets: fromPretrained({
      pip: "uni2ts",
      module: "uni2ts.model.moirai",
      name: "MoiraiModule",
      variable: "module",
    }),
    filter: false,
  },
} satisfies Record<string, ModelLibrary>;
