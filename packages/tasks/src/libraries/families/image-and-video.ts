import { SANA_DEFAULT_SIZE, SANA_DEFAULT_STEPS } from "../../inputs/constants.js";
import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { exampleText, modelName } from "../examples.js";
import { type Code, joinCode, py, sh } from "../quote.js";
import { cloneDownloadRun, downloadWeights, fromPretrained, pipInstall, repoFile } from "../snippets/kit.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import { type LibrarySnippet, type LibrarySnippetBuilder, type ModelLibrary, snippet } from "../types.js";

/** Image, video and 3D generation and editing libraries. */

/** The repository file whose name matches `pattern`, else a placeholder the user replaces. */
function fileMatching(model: ModelData, pattern: RegExp, placeholder: string): string {
  return model.siblings?.find((file) => pattern.test(file.rfilename))?.rfilename ?? placeholder;
}

/**
 * LTX-2 runs from its repository with uv: the weights of this repository plus the Gemma text encoder its
 * pipelines read. The distilled pipeline takes the distilled checkpoint and the spatial upsampler.
 */
function ltxSnippets(model: ModelData): LibrarySnippet[] {
  const folder = `models/${modelName(model)}`;
  const checkpoint = fileMatching(
    model,
    /distilled(?!.*lora).*\.safetensors$/i,
    "DISTILLED_CHECKPOINT.safetensors",
  );
  const upsampler = fileMatching(
    model,
    /(upsampler|upscaler).*\.safetensors$/i,
    "SPATIAL_UPSAMPLER.safetensors",
  );
  return [
    snippet(
      sh`git clone https://github.com/Lightricks/LTX-2.git
cd LTX-2
uv sync --frozen
hf download ${model.id} --local-dir ${folder}
hf download google/gemma-3-12b-it-qat-q4_0-unquantized --local-dir models/gemma-3-12b`,
      "Install and download",
    ),
    snippet(
      joinCode("sh", [
        sh`uv run python -m ltx_pipelines.distilled \\`,
        sh`  --distilled-checkpoint-path ${`${folder}/${checkpoint}`} \\`,
        sh`  --spatial-upsampler-path ${`${folder}/${upsampler}`} \\`,
        sh`  --gemma-root models/gemma-3-12b \\`,
        sh`  --prompt ${"A beautiful sunset over the ocean"} --output-path output.mp4`,
      ]),
      "Generate a video (add --image IMAGE 0 0.8 to start from an image)",
    ),
  ];
}

/** nobg cuts the background out of an image: a model and its processor, then one call. */
function nobgSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["nobg"]),
    snippet(
      py`from nobg import AutoModel, AutoProcessor

model = AutoModel.from_pretrained(${model.id}).eval()
processor = AutoProcessor.from_pretrained(${model.id})
cutout = model.predict(processor, "image.jpg")`,
      "Remove the background",
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

export const halloSnippets = cloneDownloadRun(
  "https://github.com/fudan-generative-vision/hallo",
  "pretrained_models",
  sh`python scripts/inference.py --source_image examples/reference_images/1.jpg --driving_audio examples/driving_audios/1.wav`,
);

export const livePortraitSnippets = cloneDownloadRun(
  "https://github.com/KwaiVGI/LivePortrait",
  "pretrained_weights",
  sh`python inference.py -s assets/examples/source/s6.jpg -d assets/examples/driving/d0.mp4`,
);

export const hunyuanDitSnippets = cloneDownloadRun(
  "https://github.com/Tencent/HunyuanDiT",
  "ckpts",
  sh`python sample_t2i.py --infer-mode fa --prompt "a cute cat" --no-enhance`,
);

export const openOasisSnippets = cloneDownloadRun(
  "https://github.com/etched-ai/open-oasis",
  ".",
  sh`python generate.py --oasis-ckpt oasis500m.safetensors --vae-ckpt vit-l-20.safetensors`,
);

/** Wan's generate.py takes the task of the checkpoint, which its repository name tells. */
const WAN_TASKS: ReadonlyArray<[RegExp, string]> = [
  [/TI2V-5B/i, "ti2v-5B"],
  [/T2V-A14B/i, "t2v-A14B"],
  [/I2V-A14B/i, "i2v-A14B"],
  [/S2V-14B/i, "s2v-14B"],
  [/Animate-14B/i, "animate-14B"],
  [/FLF2V-14B/i, "flf2v-14B"],
  [/VACE-14B/i, "vace-14B"],
  [/VACE-1\.3B/i, "vace-1.3B"],
  [/T2V-14B/i, "t2v-14B"],
  [/T2V-1\.3B/i, "t2v-1.3B"],
  [/I2V-14B/i, "i2v-14B"],
];

function wanSnippets(repoUrl: string): LibrarySnippetBuilder {
  const fallback = downloadWeights(`${repoUrl}#readme`);
  return (model) => {
    const task = WAN_TASKS.find(([pattern]) => pattern.test(model.id))?.[1];
    if (task === undefined) return fallback(model);
    return cloneDownloadRun(
      repoUrl,
      "./checkpoint",
      sh`python generate.py --task ${task} --ckpt_dir ./checkpoint --prompt ${exampleText(model, "Two cats boxing on a stage.")}`,
    )(model);
  };
}

export const wan21Snippets = wanSnippets("https://github.com/Wan-Video/Wan2.1");

export const wan22Snippets = wanSnippets("https://github.com/Wan-Video/Wan2.2");

/** ComfyUI loads single-file checkpoints from its models/checkpoints folder. */
export function comfyCheckpointSnippets(model: ModelData): LibrarySnippet[] {
  const file = repoFile(model, [".safetensors", ".ckpt"], "model.safetensors");
  return [
    snippet(
      sh`hf download ${model.id} ${file} --local-dir ComfyUI/models/checkpoints`,
      "Put the checkpoint in ComfyUI",
    ),
  ];
}

export const openSoraSnippets = cloneDownloadRun(
  "https://github.com/hpcaitech/Open-Sora",
  "./ckpts",
  sh`torchrun --nproc_per_node 1 --standalone scripts/diffusion/inference.py configs/diffusion/inference/t2i2v_256px.py --save-dir samples --prompt "raining, sea"`,
  sh`pip install -v .`,
);

export const mochiSnippets = cloneDownloadRun(
  "https://github.com/genmoai/mochi",
  "weights",
  sh`python3 ./demos/cli.py --model_dir weights/ --cpu_offload`,
  sh`pip install -e . --no-build-isolation`,
);

/** Phantom conditions Wan2.1-T2V-1.3B on reference images; its generate.py reads both checkpoints. */
export function phantomWanSnippets(model: ModelData): LibrarySnippet[] {
  const checkpoint = repoFile(model, ["Phantom-Wan-1.3B.pth"], "Phantom-Wan-1.3B.pth");
  return [
    snippet(
      sh`git clone https://github.com/Phantom-video/Phantom
cd Phantom
pip install -r requirements.txt
hf download Wan-AI/Wan2.1-T2V-1.3B --local-dir ./Wan2.1-T2V-1.3B
hf download ${model.id} --local-dir ./Phantom-Wan-Models
python generate.py --task s2v-1.3B --size 832*480 --ckpt_dir ./Wan2.1-T2V-1.3B --phantom_ckpt ./Phantom-Wan-Models/${checkpoint} --ref_image "examples/ref1.png,examples/ref2.png" --prompt ${exampleText(model, "A girl and her dog play in a sunny meadow.")}`,
      "Download and run",
    ),
  ];
}

/** SeedVR2 has one inference script per size (3B, 7B); they read the weights from ./ckpts. */
export function seedvrSnippets(model: ModelData): LibrarySnippet[] {
  const script = /SeedVR2-7B/i.test(model.id)
    ? sh`projects/inference_seedvr2_7b.py`
    : /SeedVR2-3B/i.test(model.id)
      ? sh`projects/inference_seedvr2_3b.py`
      : undefined;
  if (script === undefined) return seedvrDownload(model);
  return cloneDownloadRun(
    "https://github.com/ByteDance-Seed/SeedVR",
    "ckpts",
    sh`torchrun --nproc-per-node=1 ${script} --video_path inputs/ --output_dir outputs/ --res_h 720 --res_w 1280 --sp_size 1`,
  )(model);
}

const seedvrDownload = downloadWeights("https://github.com/ByteDance-Seed/SeedVR#readme");

/** MonkeyOCR's download tool fetches the echo840 repositories by name; other repositories are downloaded. */
const MONKEYOCR_MODELS = ["MonkeyOCR", "MonkeyOCR-pro-3B", "MonkeyOCR-pro-1.2B"];

const monkeyocrDownload = downloadWeights("https://github.com/Yuliang-Liu/MonkeyOCR#readme");

export function monkeyocrSnippets(model: ModelData): LibrarySnippet[] {
  // The name must end the repository name: "MonkeyOCR" alone must not match "MonkeyOCR-pro-3B".
  const name = MONKEYOCR_MODELS.find((known) => {
    const at = model.id.startsWith("echo840/") ? model.id.indexOf(`/${known}`) : -1;
    return at !== -1 && !/^[\w.-]/.test(model.id.slice(at + known.length + 1));
  });
  if (name === undefined) return monkeyocrDownload(model);
  return [
    snippet(
      sh`git clone https://github.com/Yuliang-Liu/MonkeyOCR
cd MonkeyOCR
pip install -e .
python tools/download_model.py -n ${name}
python parse.py document.pdf`,
      "Download and parse a document",
    ),
  ];
}

/** InfiniteYou's test script takes the model folder or Hub id with --model_dir. */
export function infiniteYouSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/bytedance/InfiniteYou
cd InfiniteYou
pip install -r requirements.txt
python test.py --model_dir ${model.id} --id_image ./assets/examples/man.jpg --prompt ${exampleText(model, "A man, portrait, cinematic")} --out_results_dir ./results`,
      "Generate an image",
    ),
  ];
}

/** MAGI-1 reads its checkpoint paths from a JSON configuration passed to its pipeline entry point. */
export const magi1Snippets = cloneDownloadRun(
  "https://github.com/SandAI-org/MAGI-1",
  "./downloads",
  sh`# Set the checkpoint paths in example/4.5B/4.5B_base_config.json to the files in ./downloads
python3 inference/pipeline/entry.py --config_file example/4.5B/4.5B_base_config.json --mode t2v --prompt "A cat playing with a ball of yarn" --output_path output_video.mp4`,
);

/** Voyager's sampler reads its weights from ./ckpts and a prepared input folder (the repository ships examples). */
export const voyagerSnippets = cloneDownloadRun(
  "https://github.com/Tencent-Hunyuan/HunyuanWorld-Voyager",
  "./ckpts",
  sh`python3 sample_image2video.py --model HYVideo-T/2 --input-path examples/case1 --prompt "An old-fashioned European village with thatched roofs on the houses." --i2v-stability --infer-steps 50 --flow-reverse --flow-shift 7.0 --seed 0 --embedded-cfg-scale 6.0 --use-cpu-offload --save-path ./results`,
);

/** InfiniteTalk drives Wan2.1-I2V-14B-480P with audio features from chinese-wav2vec2-base. */
export function infiniteTalkSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/MeiGen-AI/InfiniteTalk
cd InfiniteTalk
pip install -r requirements.txt
hf download Wan-AI/Wan2.1-I2V-14B-480P --local-dir weights/Wan2.1-I2V-14B-480P
hf download TencentGameMate/chinese-wav2vec2-base --local-dir weights/chinese-wav2vec2-base
hf download ${model.id} --local-dir weights/InfiniteTalk
python generate_infinitetalk.py --ckpt_dir weights/Wan2.1-I2V-14B-480P --wav2vec_dir weights/chinese-wav2vec2-base --infinitetalk_dir weights/InfiniteTalk/single/infinitetalk.safetensors --input_json examples/single_example_image.json --size infinitetalk-480 --sample_steps 40 --mode streaming --motion_frame 9 --save_file infinitetalk_res`,
      "Download and run",
    ),
  ];
}

/** Champ's inference configuration reads the models from ./pretrained_models. */
export const champSnippets = cloneDownloadRun(
  "https://github.com/fudan-generative-vision/champ",
  "pretrained_models",
  sh`python inference.py --config configs/inference/inference.yaml`,
);

/** GeometryCrafter's run.py fetches its diffusion weights from the Hub itself. */
export function geometryCrafterSnippets(): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone --recursive https://github.com/TencentARC/GeometryCrafter
cd GeometryCrafter
pip install -r requirements.txt
python run.py --video_path video.mp4 --save_folder workspace/output`,
      "Estimate point maps for a video",
    ),
  ];
}

/** MeshAnything's main.py fetches its weights from the Hub and turns dense meshes into artist-style ones. */
export function meshAnythingSnippets(): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/buaacyw/MeshAnything
cd MeshAnything
pip install -r requirements.txt
python main.py --input_dir examples --out_dir mesh_output --input_type mesh --mc`,
      "Generate meshes",
    ),
  ];
}

/** Fixer runs in its Cosmos container and reads the checkpoint from models/pretrained/. */
export function fixerSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/nv-tlabs/Fixer
cd Fixer
hf download ${model.id} --local-dir models
docker build -t fixer-cosmos-env -f Dockerfile.cosmos .
docker run --gpus=all -v "$PWD":/work fixer-cosmos-env python /work/src/inference_pretrained_model.py --model /work/models/pretrained/pretrained_fixer.pkl --input /work/examples --output /work/output --vae_skip_connection --timestep 250 --resolution 1024`,
      "Repair rendered views",
    ),
  ];
}

/** VideoX-Fun has one folder of prediction scripts per model family; they read models/Diffusion_Transformer/. */
const VIDEOX_FUN_SCRIPTS: ReadonlyArray<[RegExp, Code<"sh">]> = [
  [/Wan2\.1-Fun/i, sh`examples/wan2.1_fun/predict_t2v.py`],
  [/CogVideoX-Fun/i, sh`examples/cogvideox_fun/predict_t2v.py`],
];

const videoxFunDownload = downloadWeights("https://github.com/aigc-apps/VideoX-Fun#readme");

export function videoxFunSnippets(model: ModelData): LibrarySnippet[] {
  const script = VIDEOX_FUN_SCRIPTS.find(([pattern]) => pattern.test(model.id))?.[1];
  if (script === undefined) return videoxFunDownload(model);
  return [
    snippet(
      sh`git clone https://github.com/aigc-apps/VideoX-Fun
cd VideoX-Fun
pip install -r requirements.txt
hf download ${model.id} --local-dir models/Diffusion_Transformer/${modelName(model)}
# Set model_name (and the prompt) at the top of the script to the folder above, then run it
python ${script}`,
      "Download and generate a video",
    ),
  ];
}

export const IMAGE_AND_VIDEO_LIBRARIES = {
  gaussianformer: {
    prettyLabel: "GaussianFormer",
    repoName: "GaussianFormer",
    repoUrl: "https://github.com/SVLwoof/gaussianformer",
    docsUrl: "https://github.com/SVLwoof/gaussianformer#readme",
    // Installed from a clone of the repository (see its README).
    snippets: fromPretrained({
      module: "gaussianformer.pipelines.rendering_pipeline",
      name: "GaussianFormerRenderingPipeline",
      variable: "pipeline",
    }),
    filter: false,
    countDownloads: `path:"config.json"`,
  },
  "longcat-video-avatar-1.5": researchRepo(
    "LongCat-Video-Avatar 1.5",
    "https://github.com/meituan-longcat/LongCat-Video",
  ),
  ltx: {
    prettyLabel: "LTX-2",
    repoName: "LTX-2",
    repoUrl: "https://github.com/Lightricks/LTX-2",
    docsUrl: "https://github.com/Lightricks/LTX-2#readme",
    snippets: ltxSnippets,
    filter: false,
    countDownloads: `path_extension:"safetensors"`,
  },
  "minimax-h3": researchRepo("MiniMax H3", "https://github.com/MiniMax-AI/MiniMax-H3", {
    repoName: "MiniMax-H3",
    docsUrl: "https://huggingface.co/MiniMaxAI/MiniMax-H3",
    countDownloads: `path_extension:"safetensors" OR path_filename:"model_index" OR path_filename:"config" OR path:"modular_model_index.json"`,
  }),
  nobg: {
    prettyLabel: "nobg",
    repoName: "nobg",
    repoUrl: "https://github.com/feyninc/nobg",
    docsUrl: "https://github.com/feyninc/nobg#readme",
    snippets: nobgSnippets,
    filter: false,
  },
  "scail-2": researchRepo("SCAIL-2", "https://github.com/zai-org/SCAIL-2", {
    countDownloads: `path:"model/1/fsdp2_rank_0000_checkpoint.pt"`,
  }),
  araclip: {
    prettyLabel: "AraClip",
    repoName: "AraClip",
    repoUrl: "https://github.com/Arabic-Clip/Araclip",
    docsUrl: readme("https://github.com/Arabic-Clip/Araclip"),
    snippets: P.araclip,
    filter: false,
  },
  "bagel-mot": researchRepo("Bagel", "https://github.com/ByteDance-Seed/Bagel", {
    countDownloads: `path:"llm_config.json"`,
  }),
  bboxmaskpose: researchRepo("BBoxMaskPose", "https://github.com/MiraPurkrabek/BBoxMaskPose", {
    countDownloads: `path_extension:"pth"`,
  }),
  ben2: {
    prettyLabel: "BEN2",
    repoName: "BEN2",
    repoUrl: "https://github.com/PramaLLC/BEN2",
    docsUrl: readme("https://github.com/PramaLLC/BEN2"),
    snippets: P.ben2,
    filter: false,
  },
  big_vision: researchRepo("Big Vision", "https://github.com/google-research/big_vision", {
    repoName: "big_vision",
    countDownloads: `path_extension:"npz"`,
  }),
  birder: researchRepo("Birder", "https://gitlab.com/birder/birder", {
    docsUrl: "https://birder.gitlab.io/birder/",
    countDownloads: `path_extension:"pt"`,
    snippets: birderSnippets,
  }),
  champ: researchRepo("Champ", "https://github.com/fudan-generative-vision/champ", {
    snippets: champSnippets,
    countDownloads: `path:"champ/motion_module.pth"`,
  }),
  collectorvision: {
    prettyLabel: "CollectorVision",
    repoName: "CollectorVision",
    repoUrl: "https://github.com/HanClinto/CollectorVision",
    docsUrl: readme("https://github.com/HanClinto/CollectorVision"),
    snippets: collectorVisionSnippets,
    filter: false,
    countDownloads: `path_extension:"onnx"`,
  },
  cosmos: researchRepo("Cosmos", "https://github.com/nvidia-cosmos", {
    docsUrl: "https://docs.nvidia.com/cosmos/latest/",
    countDownloads: `path:"config.json" OR path_extension:"pt"`,
  }),
  cotracker: researchRepo("CoTracker", "https://github.com/facebookresearch/co-tracker", {
    docsUrl: "https://co-tracker.github.io/",
    countDownloads: `path_extension:"pth"`,
    snippets: cotrackerSnippets,
  }),
  "depth-anything-v2": researchRepo("DepthAnythingV2", "https://github.com/DepthAnything/Depth-Anything-V2", {
    repoName: "Depth Anything V2",
    countDownloads: `path_extension:"pth"`,
    snippets: depthAnythingV2Snippets,
  }),
  "describe-anything": researchRepo("Describe Anything", "https://github.com/NVlabs/describe-anything", {
    snippets: describeAnythingSnippets,
  }),
  diffree: researchRepo("Diffree", "https://github.com/OpenGVLab/Diffree", {
    countDownloads: `path:"diffree-step=000010999.ckpt"`,
  }),
  "diffusion-single-file": researchRepo(
    "Diffusion Single File",
    "https://github.com/comfyanonymous/ComfyUI",
    {
      repoName: "diffusion-single-file",
      docsUrl: "https://docs.comfy.org/",
      countDownloads: `path_extension:"safetensors"`,
      snippets: comfyCheckpointSnippets,
    },
  ),
  eupe: researchRepo("EUPE", "https://github.com/facebookresearch/EUPE", {
    countDownloads: `path_extension:"pt"`,
  }),
  fixer: researchRepo("Fixer", "https://github.com/nv-tlabs/Fixer", {
    snippets: fixerSnippets,
    countDownloads: `path:"pretrained/pretrained_fixer.pkl"`,
  }),
  genmo: researchRepo("Genmo", "https://github.com/genmoai/mochi", {
    countDownloads: `path:"vae_stats.json"`,
    snippets: mochiSnippets,
  }),
  "geometry-crafter": researchRepo("GeometryCrafter", "https://github.com/TencentARC/GeometryCrafter", {
    snippets: geometryCrafterSnippets,
    countDownloads: `path:"point_map_vae/diffusion_pytorch_model.safetensors"`,
  }),
  "glyph-byt5": researchRepo("Glyph-ByT5", "https://github.com/AIGText/Glyph-ByT5", {
    countDownloads: `path:"checkpoints/byt5_model.pt"`,
  }),
  hallo: researchRepo("Hallo", "https://github.com/fudan-generative-vision/hallo", {
    countDownloads: `path:"hallo/net.pth"`,
    snippets: halloSnippets,
  }),
  "hunyuan-dit": researchRepo("HunyuanDiT", "https://github.com/Tencent/HunyuanDiT", {
    countDownloads: `path:"pytorch_model_ema.pt" OR path:"pytorch_model_distill.pt"`,
    snippets: hunyuanDitSnippets,
  }),
  "hunyuan3d-2": {
    prettyLabel: "Hunyuan3D-2",
    repoName: "Hunyuan3D-2",
    repoUrl: "https://github.com/Tencent/Hunyuan3D-2",
    docsUrl: readme("https://github.com/Tencent/Hunyuan3D-2"),
    snippets: P.hunyuan3d,
    filter: false,
    countDownloads: `path_filename:"model_index" OR path_filename:"config"`,
  },
  "hunyuanworld-voyager": researchRepo(
    "HunyuanWorld-Voyager",
    "https://github.com/Tencent-Hunyuan/HunyuanWorld-Voyager",
  ),
  "hy-world-2": researchRepo("HY-World-2.0", "https://github.com/Tencent-Hunyuan/HY-World-2.0", {
    snippets: voyagerSnippets,
    countDownloads: `path_extension:"json"`,
  }),
  "hy-worldplay": researchRepo("HY-WorldPlay", "https://github.com/Tencent-Hunyuan/HY-WorldPlay", {
    countDownloads: `path_extension:"json"`,
  }),
  "image-matching-models": researchRepo(
    "Image Matching Models",
    "https://github.com/alexstoken/image-matching-models",
    {
      countDownloads: `path_extension:"safetensors"`,
    },
  ),
  "infinite-you": researchRepo("InfiniteYou", "https://github.com/bytedance/InfiniteYou", {
    snippets: infiniteYouSnippets,
    countDownloads: `path:"infu_flux_v1.0/sim_stage1/image_proj_model.bin" OR path:"infu_flux_v1.0/aes_stage2/image_proj_model.bin"`,
  }),
  infinitetalk: researchRepo("InfiniteTalk", "https://github.com/MeiGen-AI/InfiniteTalk", {
    snippets: infiniteTalkSnippets,
    countDownloads: `path_extension:"safetensors"`,
  }),
  lagernvs: researchRepo("LagerNVS", "https://github.com/facebookresearch/lagernvs", {
    snippets: lagerNvsSnippets,
    countDownloads: `path_extension:"pt"`,
  }),
  lightglue: researchRepo("LightGlue", "https://github.com/cvg/LightGlue", {
    countDownloads: `path_extension:"pth" OR path:"config.json"`,
  }),
  liveportrait: researchRepo("LivePortrait", "https://github.com/KwaiVGI/LivePortrait", {
    countDownloads: `path:"liveportrait/landmark.onnx"`,
    snippets: livePortraitSnippets,
  }),
  lvface: researchRepo("LVFace", "https://github.com/bytedance/LVFace", {
    countDownloads: `path_extension:"pt" OR path_extension:"onnx"`,
    snippets: lvfaceSnippets,
  }),
  "lyra-2.0": researchRepo("Lyra-2.0", "https://github.com/nv-tlabs/lyra", {
    countDownloads: `path:"checkpoints/image_encoder/model.pth"`,
  }),
  "magi-1": researchRepo("MAGI-1", "https://github.com/SandAI-org/MAGI-1", {
    snippets: magi1Snippets,
    countDownloads: `path:"ckpt/vae/config.json"`,
  }),
  matanyone: {
    prettyLabel: "MatAnyone",
    repoName: "MatAnyone",
    repoUrl: "https://github.com/pq-yang/MatAnyone",
    docsUrl: readme("https://github.com/pq-yang/MatAnyone"),
    snippets: P.matanyone,
    filter: false,
  },
  "mesh-anything": researchRepo("MeshAnything", "https://github.com/buaacyw/MeshAnything", {
    snippets: meshAnythingSnippets,
    countDownloads: `path:"MeshAnything_350m.pth"`,
  }),
  "ml-sharp": {
    prettyLabel: "Sharp",
    repoName: "ml-sharp",
    repoUrl: "https://github.com/apple/ml-sharp",
    docsUrl: readme("https://github.com/apple/ml-sharp"),
    snippets: mlSharpSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  monkeyocr: researchRepo("MonkeyOCR", "https://github.com/Yuliang-Liu/MonkeyOCR", {
    snippets: monkeyocrSnippets,
    repoName: "monkeyocr",
    countDownloads: `path:"Recognition/config.json"`,
  }),
  mtvcraft: researchRepo("MTVCraft", "https://github.com/baaivision/MTVCraft", {
    countDownloads: `path:"vae/3d-vae.pt"`,
  }),
  "open-oasis": researchRepo("open-oasis", "https://github.com/etched-ai/open-oasis", {
    countDownloads: `path:"oasis500m.safetensors"`,
    snippets: openOasisSnippets,
  }),
  "open-sora": researchRepo("Open-Sora", "https://github.com/hpcaitech/Open-Sora", {
    countDownloads: `path:"Open_Sora_v2.safetensors"`,
    snippets: openSoraSnippets,
  }),
  "phantom-wan": researchRepo("Phantom", "https://github.com/Phantom-video/Phantom", {
    snippets: phantomWanSnippets,
    countDownloads: `path_extension:"pth"`,
  }),
  "py-feat": researchRepo("Py-Feat", "https://github.com/cosanlab/py-feat", {
    docsUrl: "https://py-feat.org/",
    snippets: pyFeatSnippets,
  }),
  pythae: {
    prettyLabel: "pythae",
    repoName: "pythae",
    repoUrl: "https://github.com/clementchadebec/benchmark_VAE",
    docsUrl: "https://pythae.readthedocs.io/en/latest/",
    snippets: P.pythae,
    filter: false,
  },
  refiners: researchRepo("Refiners", "https://github.com/finegrain-ai/refiners", {
    docsUrl: "https://refine.rs/",
    countDownloads: `path:"model.safetensors"`,
    snippets: refinersSnippets,
  }),
  renderformer: {
    prettyLabel: "RenderFormer",
    repoName: "RenderFormer",
    repoUrl: "https://github.com/microsoft/renderformer",
    docsUrl: readme("https://github.com/microsoft/renderformer"),
    snippets: P.renderformer,
    filter: false,
  },
  "sam-3d-body": researchRepo("SAM 3D Body", "https://github.com/facebookresearch/sam-3d-body", {
    snippets: sam3dBodySnippets,
  }),
  "sam-3d-objects": researchRepo("SAM 3D Objects", "https://github.com/facebookresearch/sam-3d-objects", {
    snippets: sam3dObjectsSnippets,
  }),
  sana: researchRepo("Sana", "https://github.com/NVlabs/Sana", {
    docsUrl: "https://nvlabs.github.io/Sana/",
    countDownloads: `path_extension:"pth"`,
    snippets: sanaSnippets,
  }),
  sapiens: researchRepo("sapiens", "https://github.com/facebookresearch/sapiens", {
    snippets: sapiensSnippets,
    countDownloads: `path_extension:"pt2" OR path_extension:"pth" OR path_extension:"onnx"`,
  }),
  sapiens2: researchRepo("sapiens2", "https://github.com/facebookresearch/sapiens2", {
    countDownloads: `path_extension:"safetensors"`,
  }),
  "seed-story": researchRepo("SEED-Story", "https://github.com/TencentARC/SEED-Story", {
    countDownloads: `path:"cvlm_llama2_tokenizer/tokenizer.model"`,
  }),
  seedvr: researchRepo("SeedVR", "https://github.com/ByteDance-Seed/SeedVR", {
    snippets: seedvrSnippets,
    countDownloads: `path_extension:"pth"`,
  }),
  "segmentation-models-pytorch": {
    prettyLabel: "Segmentation Models",
    repoName: "segmentation_models.pytorch",
    repoUrl: "https://github.com/qubvel-org/segmentation_models.pytorch",
    docsUrl: "https://smp.readthedocs.io/en/latest/",
    snippets: P.segmentationModelsPytorch,
    filter: false,
  },
  "self-forcing": {
    prettyLabel: "Self-Forcing",
    repoName: "Self-Forcing",
    repoUrl: "https://github.com/guandeh17/Self-Forcing",
    docsUrl: readme("https://github.com/guandeh17/Self-Forcing"),
    snippets: selfForcingSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  "tic-clip": researchRepo("TiC-CLIP", "https://github.com/apple/ml-tic-clip", {
    countDownloads: `path_extension:"pt" AND path_prefix:"checkpoints/"`,
    snippets: ticClipSnippets,
  }),
  trellis: {
    prettyLabel: "Trellis",
    repoName: "Trellis",
    repoUrl: "https://github.com/microsoft/TRELLIS",
    docsUrl: readme("https://github.com/microsoft/TRELLIS"),
    snippets: P.trellis,
    filter: false,
    countDownloads: `path_extension:"safetensors"`,
  },
  trellis2: {
    prettyLabel: "TRELLIS.2",
    repoName: "TRELLIS.2",
    repoUrl: "https://github.com/microsoft/TRELLIS.2",
    docsUrl: readme("https://github.com/microsoft/TRELLIS.2"),
    snippets: P.trellis2,
    filter: false,
    countDownloads: `path_extension:"safetensors"`,
  },
  univa: {
    prettyLabel: "univa",
    repoName: "univa",
    repoUrl: "https://github.com/PKU-YuanGroup/UniWorld-V1",
    docsUrl: readme("https://github.com/PKU-YuanGroup/UniWorld-V1"),
    snippets: P.univa,
    filter: true,
    countDownloads: `path:"config.json"`,
  },
  "vfi-mamba": {
    prettyLabel: "VFIMamba",
    repoName: "VFIMamba",
    repoUrl: "https://github.com/MCG-NJU/VFIMamba",
    docsUrl: readme("https://github.com/MCG-NJU/VFIMamba"),
    snippets: P.vfiMamba,
    filter: false,
    countDownloads: `path_extension:"pkl"`,
  },
  videoprism: researchRepo("VideoPrism", "https://github.com/google-deepmind/videoprism", {
    countDownloads: `path_extension:"npz"`,
    snippets: videoprismSnippets,
  }),
  videox_fun: researchRepo("VideoX Fun", "https://github.com/aigc-apps/VideoX-Fun", {
    snippets: videoxFunSnippets,
    countDownloads: `path_extension:"safetensors"`,
  }),
  vismatch: researchRepo("VisMatch", "https://github.com/gmberton/vismatch", {
    countDownloads: `path:"vismatch.yaml"`,
  }),
  wan: researchRepo("Wan", "https://github.com/Wan-Video/Wan2.1", {
    countDownloads: `path_filename:"config" AND path_extension:"json"`,
    snippets: wan21Snippets,
  }),
  "wan2.2": researchRepo("Wan2.2", "https://github.com/Wan-Video/Wan2.2", {
    countDownloads: `path_filename:"config" AND path_extension:"json"`,
    snippets: wan22Snippets,
  }),
  wham: researchRepo("WHAM", "https://huggingface.co/microsoft/wham", {
    repoName: "wham",
    docsUrl: "https://huggingface.co/microsoft/wham/blob/main/README.md",
    countDownloads: `path_extension:"ckpt"`,
  }),
  "3dtopia-xl": researchRepo("3DTopia-XL", "https://github.com/3DTopia/3DTopia-XL", {
    countDownloads: `path:"model_vae_fp16.pt"`,
    snippets: threeDTopiaXlSnippets,
  }),
} satisfies Record<string, ModelLibrary>;
