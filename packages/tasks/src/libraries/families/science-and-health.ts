import type { ModelData } from "../../model-data.js";
import { researchRepo } from "../define.js";
import { downloadWeights, fromPretrained, pipInstall, repoFile } from "../kit.js";
import { joinCode, py, sh } from "../quote.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Medical imaging, molecules and drug design libraries. */

/** OpenDDE's command fetches its own published checkpoints into $OPENDDE_ROOT_DIR; it takes no repository id. */
function openDdeSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["opendde[gpu]"]),
    snippet(
      sh`opendde doctor
opendde pred -i examples/input.json -o ./output -n opendde_v1`,
      "Check the setup and predict",
    ),
  ];
}

/** Tokenizer and model of a MultiMolecule checkpoint (RNA, DNA and protein language models). */
function multimoleculeSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["multimolecule"]),
    snippet(
      joinCode("python", [
        py`from multimolecule import AutoModel, AutoTokenizer`,
        py``,
        py`tokenizer = AutoTokenizer.from_pretrained(${model.id})`,
        py`model = AutoModel.from_pretrained(${model.id})`,
      ]),
      "Load the model",
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

export function merlinSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["merlin-vlm"]),
    snippet(
      py`from merlin import Merlin\n\nmodel = Merlin()  # downloads the weights from the Hub\nmodel.eval()`,
      "Load the model",
    ),
  ];
}

export function medvaeSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["medvae"]),
    snippet(
      py`from medvae import MVAE

model = MVAE(model_name="medvae_4_1_2d", modality="xray")  # fetches the weights from the Hub
model.requires_grad_(False)
model.eval()`,
      "Load the autoencoder",
    ),
  ];
}

/** CXR Foundation runs through Google's client, which fetches the model from the Hub. */
export function cxrFoundationSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/Google-Health/cxr-foundation.git#subdirectory=python"]),
    snippet(
      py`from clientside.clients import make_hugging_face_client
from PIL import Image

cxr_client = make_hugging_face_client("cxr_model")
embeddings = cxr_client.get_image_embeddings_from_images([Image.open("chest_xray.png").convert("L")])`,
      "Embed a chest X-ray",
    ),
  ];
}

/** KRONOS loads its encoder through its own factory, from an `hf_hub:` reference. */
export function kronosSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from kronos import create_model_from_pretrained

model, precision, embedding_dim = create_model_from_pretrained(
    checkpoint_path=${`hf_hub:${model.id}`},
    cache_dir="./model_assets",
    cfg={"model_type": "vits16", "token_overlap": False},
)`,
      "Load the encoder",
    ),
  ];
}

/** The colipri package builds its model and processor and fetches the published weights itself. */
export function colipriSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["colipri"]),
    snippet(
      py`from colipri import get_model, get_processor

model = get_model().eval()  # downloads the published COLIPRI weights
processor = get_processor()`,
      "Load the model",
    ),
  ];
}

/** FME runs ACE from an inference configuration that names the checkpoint and the forcing data. */
export function fmeSnippets(model: ModelData): LibrarySnippet[] {
  const config = repoFile(model, ["inference_config.yaml"], "inference_config.yaml");
  return [
    snippet(
      sh`pip install fme
hf download ${model.id} --local-dir ace
# Point the configuration's checkpoint and forcing-data paths at your copies first
python -m fme.ace.inference ace/${config}`,
      "Run an inference",
    ),
  ];
}

/** BoltzGen fetches its checkpoints from the Hub on the first run of a design specification. */
export function boltzgenSnippets(): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/HannesStark/boltzgen
cd boltzgen
pip install -e .
boltzgen run example/vanilla_protein/1g13prot.yaml --output designs --protocol protein-anything --num_designs 10`,
      "Design a protein binder",
    ),
  ];
}

/** Skala is an exchange-correlation functional used through PySCF; `xc="skala"` fetches its weights. */
export function skalaSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["microsoft-skala"]),
    snippet(
      py`from pyscf import gto
from skala.pyscf import SkalaKS

mol = gto.M(atom="H 0 0 0; H 0 0 1.4", basis="def2-tzvp")
ks = SkalaKS(mol, xc="skala")
energy = ks.kernel()`,
      "Run a Kohn-Sham calculation",
    ),
  ];
}

/** TerraTorch builds the Prithvi backbones by registry name, with IBM/NASA's published weights. */
const TERRATORCH_BACKBONES: ReadonlyArray<[string, string]> = [
  ["Prithvi-EO-2.0-300M-TL", "prithvi_eo_v2_300_tl"],
  ["Prithvi-EO-2.0-300M", "prithvi_eo_v2_300"],
  ["Prithvi-EO-2.0-600M-TL", "prithvi_eo_v2_600_tl"],
  ["Prithvi-EO-2.0-600M", "prithvi_eo_v2_600"],
  ["Prithvi-EO-1.0-100M", "prithvi_eo_v1_100"],
];

const terratorchDownload = downloadWeights("https://ibm.github.io/terratorch/");

export function terratorchSnippets(model: ModelData): LibrarySnippet[] {
  const backbone = TERRATORCH_BACKBONES.find(([repo]) => {
    const prefix = `ibm-nasa-geospatial/${repo}`;
    return model.id.startsWith(prefix) && !/^[\w.-]/.test(model.id.slice(prefix.length));
  })?.[1];
  if (backbone === undefined) return terratorchDownload(model);
  return [
    pipInstall(["terratorch"]),
    snippet(
      py`from terratorch.registry import BACKBONE_REGISTRY

model = BACKBONE_REGISTRY.build(${backbone}, pretrained=True)`,
      "Build the pretrained backbone",
    ),
  ];
}

/** IntelliFold's command fetches its weights from the Hub on the first prediction. */
export function intellifoldSnippets(): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/IntelliGen-AI/IntelliFold
cd IntelliFold
pip install intellifold
intellifold predict ./examples/5S8I_A.yaml --out_dir ./output`,
      "Predict a structure",
    ),
  ];
}

export const SCIENCE_AND_HEALTH_LIBRARIES = {
  chexmix: researchRepo("CheXmix", "https://github.com/StanfordMIMI/CheXmix", {
    countDownloads: `path_extension:"safetensors"`,
  }),
  flexray: {
    prettyLabel: "FleXray",
    repoName: "FleXray",
    repoUrl: "https://github.com/VictorButoi/FleXray",
    docsUrl: "https://github.com/VictorButoi/FleXray#readme",
    snippets: fromPretrained({
      pip: "flexray",
      module: "fxr.inference",
      name: "FleXraySegmenter",
      variable: "segmenter",
      usage: py`prediction = segmenter.predict("image.png", threshold=0.5)
masks = prediction.masks`,
    }),
    filter: false,
    countDownloads: `path_extension:"safetensors" OR path_extension:"onnx"`,
  },
  multimolecule: {
    prettyLabel: "MultiMolecule",
    repoName: "MultiMolecule",
    repoUrl: "https://github.com/MultiMolecule/multimolecule",
    docsUrl: "https://multimolecule.danling.org",
    snippets: multimoleculeSnippets,
    filter: false,
  },
  opendde: {
    prettyLabel: "OpenDDE",
    repoName: "OpenDDE",
    repoUrl: "https://github.com/aurekaresearch/OpenDDE",
    docsUrl: "https://huggingface.co/aurekaresearch/OpenDDE/blob/main/docs/inference_instructions.md",
    snippets: openDdeSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  anemoi: {
    prettyLabel: "Anemoi",
    repoName: "anemoi-inference",
    repoUrl: "https://github.com/ecmwf/anemoi-inference",
    docsUrl: "https://anemoi.readthedocs.io/en/latest/",
    snippets: anemoiSnippets,
    filter: false,
    countDownloads: `path_extension:"ckpt"`,
  },
  bionemo: researchRepo("BioNeMo", "https://github.com/NVIDIA/bionemo-framework", {
    docsUrl: "https://docs.nvidia.com/bionemo-framework/latest/",
    countDownloads: `path_extension:"ckpt" OR path:"config.json"`,
  }),
  boltzgen: researchRepo("BoltzGen", "https://github.com/HannesStark/boltzgen", {
    snippets: boltzgenSnippets,
    countDownloads: `path:"boltzgen1_diverse.ckpt"`,
  }),
  cancertathomev2: researchRepo("Cancer@HomeV2", "https://huggingface.co/OpenPeerAI/CancerAtHomeV2", {
    countDownloads: `path:"run.py"`,
  }),
  chaossim: researchRepo("ChaosSIM", "https://huggingface.co/OpenPeerAI/ChaosSIM", {
    countDownloads: `path:"ChaosSim.nb"`,
  }),
  clara: researchRepo("Clara", "https://github.com/NVIDIA/clara", {
    countDownloads: `path_extension:"ckpt" OR path:"config.json"`,
  }),
  colipri: researchRepo("COLIPRI", "https://huggingface.co/microsoft/colipri", {
    snippets: colipriSnippets,
    countDownloads: `path_extension:"safetensors"`,
  }),
  "cxr-foundation": researchRepo("CXR Foundation", "https://github.com/Google-Health/cxr-foundation", {
    repoName: "cxr-foundation",
    docsUrl: "https://developers.google.com/health-ai-developer-foundations/cxr-foundation",
    countDownloads: `path:"precomputed_embeddings/embeddings.npz" OR path:"pax-elixr-b-text/saved_model.pb"`,
    snippets: cxrFoundationSnippets,
  }),
  "derm-foundation": {
    prettyLabel: "Derm Foundation",
    repoName: "derm-foundation",
    repoUrl: "https://github.com/Google-Health/derm-foundation",
    docsUrl: "https://developers.google.com/health-ai-developer-foundations/derm-foundation",
    snippets: savedModelKerasSnippets,
    filter: false,
    countDownloads: `path:"scin_dataset_precomputed_embeddings.npz" OR path:"saved_model.pb"`,
  },
  "docking-at-home": researchRepo("Docking@Home", "https://huggingface.co/OpenPeerAI/DockingAtHOME", {
    countDownloads: `path:"setup.py"`,
  }),
  fme: researchRepo("Full Model Emulation", "https://github.com/ai2cm/ace", {
    snippets: fmeSnippets,
    docsUrl: "https://ai2-climate-emulator.readthedocs.io/en/latest/",
    countDownloads: `path_extension:"tar"`,
  }),
  intellifold: researchRepo("IntelliFold", "https://github.com/IntelliGen-AI/IntelliFold", {
    snippets: intellifoldSnippets,
    countDownloads: `path_extension:"pt"`,
  }),
  "ising-decoding": researchRepo("Ising Decoding", "https://github.com/NVIDIA/Ising-Decoding", {
    repoName: "Ising-Decoding",
    countDownloads: `path_extension:"safetensors"`,
  }),
  kronos: researchRepo("KRONOS", "https://github.com/mahmoodlab/KRONOS", {
    snippets: kronosSnippets,
    countDownloads: `path_extension:"pt"`,
  }),
  "manas-1": researchRepo("MANAS-1", "https://github.com/NeurodxAI/manas-1", {
    countDownloads: `path_extension:"pt"`,
  }),
  medvae: researchRepo("MedVAE", "https://github.com/StanfordMIMI/MedVAE", {
    countDownloads: `path_extension:"ckpt"`,
    snippets: medvaeSnippets,
  }),
  merlin: researchRepo("Merlin", "https://github.com/StanfordMIMI/Merlin", {
    countDownloads: `path_extension:"pt"`,
    snippets: merlinSnippets,
  }),
  "nv-medtech": researchRepo("NV-MedTech", "https://github.com/nvidia-medtech", {
    countDownloads: `path_extension:"pt" OR path_extension:"safetensors" OR path:"config.json"`,
  }),
  quantumpeer: researchRepo("QuantumPeer", "https://github.com/OpenPeer-AI/QuantumPeer", {
    countDownloads: `path:"setup.py"`,
  }),
  "scvi-tools": {
    prettyLabel: "scvi-tools",
    repoName: "scvi-tools",
    repoUrl: "https://github.com/scverse/scvi-tools",
    docsUrl: "https://docs.scvi-tools.org/en/stable/",
    snippets: scviToolsSnippets,
    filter: false,
  },
  skala: researchRepo("Skala", "https://github.com/microsoft/skala", {
    snippets: skalaSnippets,
    countDownloads: `path_extension:"fun"`,
  }),
  terratorch: researchRepo("TerraTorch", "https://github.com/IBM/terratorch", {
    snippets: terratorchSnippets,
    docsUrl: "https://ibm.github.io/terratorch/",
    countDownloads: `path_extension:"pt"`,
  }),
  torchgeo: researchRepo("TorchGeo", "https://github.com/microsoft/torchgeo", {
    docsUrl: "https://torchgeo.readthedocs.io/",
    countDownloads: `path_extension:"pt" OR path_extension:"pth"`,
  }),
  "uni-3dar": researchRepo("Uni-3DAR", "https://github.com/dptech-corp/Uni-3DAR", {
    countDownloads: `path_extension:"pt"`,
  }),
} satisfies Record<string, ModelLibrary>;
