import type { ModelData } from "../../model-data.js";
import { exampleText } from "../examples.js";
import { comment, joinCode, py, sh } from "../quote.js";
import { type LibrarySnippet, snippet } from "../types.js";
import { downloadWeights, pipInstall, repoFile } from "./kit.js";

/**
 * Research code bases added with the 2026 catalogue refresh: their checkpoints load with a documented
 * class or command. Facts (class names, flags, folders) come from each project's README, linked from the
 * catalogue.
 */

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

/** Self-Forcing distils Wan2.1-T2V-1.3B: its inference script reads the base model from wan_models/. */
export function selfForcingSnippets(model: ModelData): LibrarySnippet[] {
  const checkpoint = repoFile(model, ["self_forcing_dmd.pt"], "checkpoints/self_forcing_dmd.pt");
  return [
    snippet(
      sh`git clone https://github.com/guandeh17/Self-Forcing
cd Self-Forcing
pip install -r requirements.txt
hf download Wan-AI/Wan2.1-T2V-1.3B --local-dir wan_models/Wan2.1-T2V-1.3B
hf download ${model.id} ${checkpoint} --local-dir .
python inference.py --config_path configs/self_forcing_dmd.yaml --checkpoint_path ${checkpoint} --data_path prompts/MovieGenVideoBench_extended.txt --output_folder videos --use_ema`,
      "Download and run",
    ),
  ];
}

/** Apple's SHARP predicts 3D Gaussians from images with its `sharp` command; `-c` names a local checkpoint. */
export function mlSharpSnippets(model: ModelData): LibrarySnippet[] {
  const checkpoint = repoFile(model, [".pt"], "sharp_2572gikvuh.pt");
  return [
    snippet(
      sh`git clone https://github.com/apple/ml-sharp
cd ml-sharp
pip install -r requirements.txt
hf download ${model.id} ${checkpoint} --local-dir checkpoints
sharp predict -i images/ -o gaussians/ -c checkpoints/${checkpoint}`,
      "Predict Gaussians from images",
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

/** IMS Toucan speaks through its inference interface, run from a clone; it fetches its default model. */
export function imsToucanSnippets(): LibrarySnippet[] {
  return [
    snippet(
      py`# Run from a clone of https://github.com/DigitalPhonetics/IMS-Toucan
from InferenceInterfaces.ToucanTTSInterface import ToucanTTSInterface

tts = ToucanTTSInterface(device="cpu")
tts.set_language("eng")
tts.read_to_file(text_list=["Hello, this is IMS Toucan."], file_location="speech.wav")`,
      "Synthesize speech",
    ),
  ];
}

/** Seamless loads models by card name; the cards of the published M4T checkpoints and their vocoders. */
const SEAMLESS_CARDS: ReadonlyArray<[string, string, string]> = [
  ["facebook/seamless-m4t-v2-large", "seamlessM4T_v2_large", "vocoder_v2"],
  ["facebook/seamless-m4t-large", "seamlessM4T_large", "vocoder_36langs"],
  ["facebook/seamless-m4t-medium", "seamlessM4T_medium", "vocoder_36langs"],
];
const seamlessDownload = downloadWeights("https://github.com/facebookresearch/seamless_communication#readme");

export function seamlessSnippets(model: ModelData): LibrarySnippet[] {
  const card = SEAMLESS_CARDS.find(
    ([id]) => model.id.startsWith(id) && !/^[\w.-]/.test(model.id.slice(id.length)),
  );
  if (card === undefined) return seamlessDownload(model);
  const [, name, vocoder] = card;
  return [
    pipInstall(["git+https://github.com/facebookresearch/seamless_communication.git"]),
    snippet(
      py`import torch
from seamless_communication.inference import Translator

translator = Translator(${name}, ${vocoder}, torch.device("cuda:0"), dtype=torch.float16)
text_output, speech_output = translator.predict("Hello, world!", "t2st", "fra", src_lang="eng")`,
      "Translate",
    ),
  ];
}

/** RecurrentGemma's PyTorch checkpoints (`.pt` files) build the Griffin network from their own parameters. */
const recurrentGemmaDownload = downloadWeights("https://github.com/google-deepmind/recurrentgemma#readme");

export function recurrentGemmaSnippets(model: ModelData): LibrarySnippet[] {
  const checkpoint = model.siblings?.find((s) => s.rfilename.toLowerCase().endsWith(".pt"))?.rfilename;
  if (checkpoint === undefined) return recurrentGemmaDownload(model);
  return [
    snippet(
      py`import sentencepiece as spm
import torch
from huggingface_hub import hf_hub_download
from recurrentgemma import torch as recurrentgemma

params = torch.load(hf_hub_download(${model.id}, ${checkpoint}), map_location="cpu")
model = recurrentgemma.Griffin(recurrentgemma.GriffinConfig.from_torch_params(params))
model.load_state_dict(params)
vocab = spm.SentencePieceProcessor()
vocab.Load(hf_hub_download(${model.id}, "tokenizer.model"))
sampler = recurrentgemma.Sampler(model=model, vocab=vocab)
output = sampler(["Where is Paris?"], total_generation_steps=64)`,
      "Load the model and sample",
    ),
  ];
}

/** LiteRT-LM runs `.litertlm` bundles with its command-line engine, built from the repository. */
export function litertLmSnippets(model: ModelData): LibrarySnippet[] {
  const file = repoFile(model, [".litertlm"], "model.litertlm");
  return [
    snippet(
      sh`git clone https://github.com/google-ai-edge/LiteRT-LM
cd LiteRT-LM
bazel build //runtime/engine:litert_lm_main
hf download ${model.id} ${file} --local-dir .
bazel-bin/runtime/engine/litert_lm_main --backend=cpu --model_path=${file} --input_prompt="What is the tallest mountain?"`,
      "Build the engine and chat",
    ),
  ];
}

/** Sapiens Lite publishes TorchScript exports (`.pt2`) that load without the training code. */
const sapiensDownload = downloadWeights("https://github.com/facebookresearch/sapiens#readme");

export function sapiensSnippets(model: ModelData): LibrarySnippet[] {
  const file = model.siblings?.find((s) => s.rfilename.toLowerCase().endsWith(".pt2"))?.rfilename;
  if (file === undefined || !/torchscript/i.test(model.id)) return sapiensDownload(model);
  return [
    snippet(
      py`import torch
from huggingface_hub import hf_hub_download

model = torch.jit.load(hf_hub_download(${model.id}, ${file}), map_location="cpu")
model.eval()`,
      "Load the TorchScript model",
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

/** LagerNVS checkpoints share one architecture; the Re10k one was trained with full attention to features. */
export function lagerNvsSnippets(model: ModelData): LibrarySnippet[] {
  const attention = /re10k/i.test(model.id) ? "full_attention" : "bidirectional_cross_attention";
  return [
    snippet(
      py`# Run from a clone of https://github.com/facebookresearch/lagernvs
import torch
from huggingface_hub import hf_hub_download
from models.encoder_decoder import EncDec_VitB8

model = EncDec_VitB8(pretrained_vggt=False, attention_to_features_type=${attention})
model.load_state_dict(torch.load(hf_hub_download(${model.id}, filename="model.pt"))["model"])
model.eval()`,
      "Load the model",
    ),
  ];
}

/** Habibi-TTS is F5-TTS with dialect conditioning: F5's loader, Habibi's inference with a dialect id. */
export function habibiTtsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["habibi-tts"]),
    snippet(
      py`from importlib.resources import files

from f5_tts.infer.utils_infer import load_model, load_vocoder, preprocess_ref_audio_text
from habibi_tts.infer.utils_infer import infer_process
from habibi_tts.model.utils import dialect_id_map
from huggingface_hub import hf_hub_download
from hydra.utils import get_class
from omegaconf import OmegaConf

cfg = OmegaConf.load(str(files("f5_tts").joinpath("configs/F5TTS_v1_Base.yaml")))
model = load_model(
    get_class("f5_tts.model." + cfg.model.backbone),
    cfg.model.arch,
    hf_hub_download(${model.id}, "Unified/model_200000.safetensors"),
    mel_spec_type="vocos",
    vocab_file=hf_hub_download(${model.id}, "Unified/vocab.txt"),
)
vocoder = load_vocoder()
ref_audio, ref_text = preprocess_ref_audio_text("reference.wav", "Transcript of the reference audio.")
wav, sample_rate, _ = infer_process(ref_audio, ref_text, ${exampleText(model, "مرحبا بكم")}, model, vocoder, dialect_id=dialect_id_map["MSA"])`,
      "Synthesize speech",
    ),
  ];
}
