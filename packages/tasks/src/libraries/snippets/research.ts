import { SANA_DEFAULT_SIZE, SANA_DEFAULT_STEPS } from "../../inputs/constants.js";
import type { ModelData } from "../../model-data.js";
import { exampleText } from "../examples.js";
import { py, pythonIdentifier, pythonName, sh } from "../quote.js";
import { type LibrarySnippet, snippet } from "../types.js";
import { downloadWeights, pipInstall, repoFile } from "./kit.js";

/**
 * Research code bases with their own loader classes or functions. The facts (entry points,
 * expected folders) come from each project's README, linked from the catalogue.
 */

const DEPTH_ANYTHING_V2_CONFIGS: Record<
  string,
  { encoder: string; features: number; outChannels: number[] }
> = {
  Small: { encoder: "vits", features: 64, outChannels: [48, 96, 192, 384] },
  Base: { encoder: "vitb", features: 128, outChannels: [96, 192, 384, 768] },
  Large: { encoder: "vitl", features: 256, outChannels: [256, 512, 1024, 1024] },
};

/** Depth Anything V2 builds the network from its size, named in the repository id (…-Small, -Base, -Large). */
const depthAnythingDownload = downloadWeights("https://github.com/DepthAnything/Depth-Anything-V2#readme");

export function depthAnythingV2Snippets(model: ModelData): LibrarySnippet[] {
  const size = Object.keys(DEPTH_ANYTHING_V2_CONFIGS).find((s) => model.id.includes(s));
  if (size === undefined) return depthAnythingDownload(model);
  const { encoder, features, outChannels } = DEPTH_ANYTHING_V2_CONFIGS[size]!;
  return [
    snippet(
      py`import cv2
import torch
from depth_anything_v2.dpt import DepthAnythingV2
from huggingface_hub import hf_hub_download

model = DepthAnythingV2(encoder=${encoder}, features=${features}, out_channels=${outChannels})
path = hf_hub_download(repo_id=${model.id}, filename=${`depth_anything_v2_${encoder}.pth`})
model.load_state_dict(torch.load(path, map_location="cpu"))
model.eval()

depth = model.infer_image(cv2.imread("image.jpg"))  # HxW depth map`,
      "Estimate depth",
    ),
  ];
}

/** CosyVoice 2 and 3 checkpoints load with their own class; the generation is in the repository name. */
export function cosyvoiceSnippets(model: ModelData): LibrarySnippet[] {
  const cls = pythonIdentifier(/CosyVoice2/i.test(model.id) ? "CosyVoice2" : "CosyVoice", "CosyVoice");
  return [
    snippet(
      py`import sys

sys.path.append("third_party/Matcha-TTS")  # run from a clone of the CosyVoice repository
from cosyvoice.cli.cosyvoice import ${cls}
from huggingface_hub import snapshot_download

cosyvoice = ${cls}(snapshot_download(repo_id=${model.id}))`,
      "Load the model",
    ),
  ];
}

export function cotrackerSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from cotracker.predictor import CoTrackerPredictor
from huggingface_hub import hf_hub_download

model = CoTrackerPredictor(checkpoint=hf_hub_download(${model.id}, ${repoFile(model, [".pth"], "scaled_offline.pth")}))
# pred_tracks, pred_visibility = model(video, grid_size=10)  # video: (B, T, 3, H, W) float tensor`,
      "Load the tracker",
    ),
  ];
}

export function describeAnythingSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/NVlabs/describe-anything"]),
    snippet(
      py`from dam import DescribeAnythingModel
from huggingface_hub import snapshot_download

dam = DescribeAnythingModel(
    model_path=snapshot_download(repo_id=${model.id}),
    conv_mode="v1",
    prompt_mode="focal_prompt",
)`,
      "Load the model",
    ),
  ];
}

/** Habana (Gaudi) and Graphcore (IPU) repositories hold the hardware configuration used with optimum. */
export function gaudiConfigSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["optimum-habana"]),
    snippet(
      py`from optimum.habana import GaudiConfig\n\ngaudi_config = GaudiConfig.from_pretrained(${model.id})`,
      "Load the Gaudi configuration",
    ),
  ];
}

export function ipuConfigSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["optimum-graphcore"]),
    snippet(
      py`from optimum.graphcore import IPUConfig\n\nipu_config = IPUConfig.from_pretrained(${model.id})`,
      "Load the IPU configuration",
    ),
  ];
}

export function pyFeatSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["py-feat"]),
    snippet(
      py`from feat import Detector

# Downloads the face, landmark, action-unit and emotion models it uses from the Hub
detector = Detector()
result = detector.detect_image("face.jpg")`,
      "Detect faces and expressions",
    ),
  ];
}

export function paddlepaddleSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import paddle
from huggingface_hub import hf_hub_download

state_dict = paddle.load(hf_hub_download(${model.id}, ${repoFile(model, [".pdparams"], "model_state.pdparams")}))`,
      "Load the parameters",
    ),
  ];
}

export function mindsporeSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import mindspore as ms
from huggingface_hub import hf_hub_download

param_dict = ms.load_checkpoint(hf_hub_download(${model.id}, ${repoFile(model, [".ckpt"], "model.ckpt")}))`,
      "Load the checkpoint",
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

export function refinersSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["refiners"]),
    snippet(
      py`from huggingface_hub import hf_hub_download
from refiners.fluxion.utils import load_from_safetensors

weights = load_from_safetensors(hf_hub_download(${model.id}, ${repoFile(model, [".safetensors"], "model.safetensors")}))`,
      "Load the weights",
    ),
  ];
}

/** Libraries whose loader fetches their one official checkpoint by itself. */
export function chatTtsSnippets(): LibrarySnippet[] {
  return [
    pipInstall(["ChatTTS"]),
    snippet(
      py`import ChatTTS

chat = ChatTTS.Chat()
chat.load(compile=False)  # downloads the checkpoint from the Hub
wavs = chat.infer(["Hello from ChatTTS."])`,
      "Synthesize speech",
    ),
  ];
}

export function supertonicSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["supertonic"]),
    snippet(
      py`from supertonic import TTS

tts = TTS(auto_download=True)
style = tts.get_voice_style(voice_name="M1")
wav, duration = tts.synthesize(${exampleText(model)}, voice_style=style)
tts.save_audio(wav, "output.wav")`,
      "Synthesize speech",
    ),
  ];
}

export function coquiSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["coqui-tts"]),
    snippet(
      py`from huggingface_hub import snapshot_download
from TTS.api import TTS

model_dir = snapshot_download(repo_id=${model.id})
tts = TTS(model_path=model_dir, config_path=model_dir + "/config.json")
tts.tts_to_file(text=${exampleText(model)}, speaker_wav="reference.wav", language="en", file_path="output.wav")`,
      "Synthesize speech",
    ),
  ];
}

export function acestepSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/ace-step/ACE-Step.git"]),
    snippet(
      py`from acestep.pipeline_ace_step import ACEStepPipeline
from huggingface_hub import snapshot_download

pipeline = ACEStepPipeline(checkpoint_dir=snapshot_download(repo_id=${model.id}), dtype="bfloat16")`,
      "Load the pipeline",
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

export function lvfaceSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from huggingface_hub import hf_hub_download
from inference_onnx import LVFaceONNXInferencer  # from the LVFace repository

inferencer = LVFaceONNXInferencer(hf_hub_download(${model.id}, ${repoFile(model, [".onnx"], "LVFace-B_Glint360K.onnx")}), use_gpu=True)
embedding = inferencer.infer_from_image("face.jpg")`,
      "Embed a face",
    ),
  ];
}

export function vuiSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/fluxions-ai/vui"]),
    snippet(
      py`import torchaudio
from vui.inference import render
from vui.model import Vui

model = Vui.from_pretrained().cuda()
waveform = render(model, ${exampleText(model)})
torchaudio.save("out.opus", waveform[0], 22050)`,
      "Synthesize speech",
    ),
  ];
}

export function magentaRealtimeSnippets(): LibrarySnippet[] {
  return [
    snippet(
      py`from magenta_rt import system

mrt = system.MagentaRT()  # fetches its checkpoints from the Hub
style = system.embed_style("funk")
chunk, state = mrt.generate_chunk(state=None, style=style)`,
      "Generate music",
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

/** VideoPrism's loader takes a model name; the repository name tells which (base or large, with or without text). */
export function videoprismSnippets(model: ModelData): LibrarySnippet[] {
  const size = /large/i.test(model.id) ? "large" : "base";
  const name = /lvt/i.test(model.id) ? `videoprism_lvt_public_v1_${size}` : `videoprism_public_v1_${size}`;
  return [
    pipInstall(["git+https://github.com/google-deepmind/videoprism.git"]),
    snippet(
      py`from videoprism import models as vp

flax_model = vp.get_model(${name})
loaded_state = vp.load_pretrained_weights(${name})`,
      "Load the model",
    ),
  ];
}

/** Birder publishes each weight set under its own name, which is what its loader takes. */
export function birderSnippets(model: ModelData): LibrarySnippet[] {
  const weights = model.id.slice(model.id.indexOf("/") + 1);
  return [
    pipInstall(["birder"]),
    snippet(
      py`import birder

net, model_info = birder.load_pretrained_model(${weights}, inference=True)`,
      "Load the model",
    ),
  ];
}

export function ticClipSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import open_clip
from huggingface_hub import hf_hub_download

checkpoint = hf_hub_download(${model.id}, ${repoFile(model, [".pt"], "checkpoints/2016.pt")})
model, _, preprocess = open_clip.create_model_and_transforms("ViT-B-16", pretrained=checkpoint)`,
      "Load a checkpoint",
    ),
  ];
}

/** LeRobot policies: the policy type is a tag of the repository (act, diffusion, smolvla, pi0...). */
const LEROBOT_POLICIES: Readonly<Record<string, string>> = {
  act: "ACTPolicy",
  diffusion: "DiffusionPolicy",
  smolvla: "SmolVLAPolicy",
  pi0: "PI0Policy",
  pi05: "PI05Policy",
  tdmpc: "TDMPCPolicy",
  vqbet: "VQBeTPolicy",
};

export function lerobotSnippets(model: ModelData): LibrarySnippet[] {
  const type = model.tags.find((tag) => Object.hasOwn(LEROBOT_POLICIES, tag));
  const out: LibrarySnippet[] = [pipInstall(["lerobot"])];
  if (type !== undefined) {
    const cls = pythonIdentifier(LEROBOT_POLICIES[type], "ACTPolicy");
    out.push(
      snippet(
        py`from ${pythonName(`lerobot.policies.${type}.modeling_${type}`)} import ${cls}

policy = ${cls}.from_pretrained(${model.id})`,
        "Load the policy",
      ),
    );
  }
  out.push(
    snippet(
      sh`lerobot-record --robot.type=so100_follower --dataset.repo_id=your-name/eval_dataset --policy.path=${model.id} --episodes=10`,
      "Run the policy on a robot",
    ),
  );
  return out;
}

export function sam3dObjectsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from huggingface_hub import hf_hub_download
from inference import Inference, load_image, load_single_mask  # from the sam-3d-objects repository

inference = Inference(hf_hub_download(${model.id}, "pipeline.yaml"), compile=False)
output = inference(load_image("image.png"), load_single_mask("mask.png", index=0))`,
      "Reconstruct an object",
    ),
  ];
}

export function sam3dBodySnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from notebook.utils import setup_sam_3d_body  # from the sam-3d-body repository

estimator = setup_sam_3d_body(${model.id})
outputs = estimator.process_one_image("person.jpg")`,
      "Estimate a body mesh",
    ),
  ];
}

export function threeDTopiaXlSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from threedtopia_xl.models import threedtopia_xl

model = threedtopia_xl.from_pretrained(${model.id})
model.generate(cond="image.png")`,
      "Generate a 3D asset",
    ),
  ];
}

/**
 * Sana checkpoints load into the pipeline of the Sana repository, configured by one of its YAML files; the
 * call shows the specification's 1024x1024 in 18 steps (§9) with the repository's guidance settings.
 */
const SANA_GUIDANCE_SCALE = 5;
const SANA_PAG_GUIDANCE_SCALE = 2;

export function sanaSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from app.sana_pipeline import SanaPipeline  # run from a clone of the Sana repository

sana = SanaPipeline("configs/sana_config/1024ms/Sana_1600M_img1024.yaml")  # the config matching the checkpoint
sana.from_pretrained(${`hf://${model.id}`})
image = sana(
    prompt=${exampleText(model, "a cyberpunk cat with a neon sign")},
    height=${SANA_DEFAULT_SIZE.height},
    width=${SANA_DEFAULT_SIZE.width},
    guidance_scale=${SANA_GUIDANCE_SCALE},
    pag_guidance_scale=${SANA_PAG_GUIDANCE_SCALE},
    num_inference_steps=${SANA_DEFAULT_STEPS},
)`,
      "Generate an image",
    ),
  ];
}

/** OuteTTS picks its checkpoint from a model enum; this is the 1.0 release through the transformers backend. */
export function outettsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["outetts"]),
    snippet(
      py`import outetts

interface = outetts.Interface(
    config=outetts.ModelConfig.auto_config(model=outetts.Models.VERSION_1_0_SIZE_1B, backend=outetts.Backend.HF)
)
speaker = interface.load_default_speaker("EN-FEMALE-1-NEUTRAL")
output = interface.generate(config=outetts.GenerationConfig(text=${exampleText(model)}, speaker=speaker))
output.save("output.wav")`,
      "Synthesize speech",
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
