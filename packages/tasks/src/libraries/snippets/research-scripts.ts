import type { ModelData } from "../../model-data.js";
import { exampleText, modelName } from "../examples.js";
import { type Code, sh } from "../quote.js";
import { type LibrarySnippet, type LibrarySnippetBuilder, snippet } from "../types.js";
import { downloadWeights, repoFile } from "./kit.js";

/**
 * Research code bases run from a clone: the weights go where their scripts look, then the entry point runs.
 * Facts (folders, entry points, task names) come from each project's README, linked from the catalogue.
 */

/** Clone the code base, fetch the weights into the folder its scripts read, run its entry point. */
function cloneDownloadRun(
  repoUrl: string,
  weightsDir: string,
  run: Code<"sh">,
  install: Code<"sh"> = sh`pip install -r requirements.txt`,
): LibrarySnippetBuilder {
  const folder = repoUrl.slice(repoUrl.lastIndexOf("/") + 1);
  return (model) => [
    snippet(
      sh`git clone ${repoUrl}
cd ${folder}
${install}
hf download ${model.id} --local-dir ${weightsDir}
${run}`,
      "Download and run",
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

export const grokSnippets = cloneDownloadRun(
  "https://github.com/xai-org/grok-1",
  "checkpoints",
  sh`python run.py`,
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

export function f5TtsSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      sh`pip install f5-tts
f5-tts_infer-cli --model F5TTS_v1_Base --ref_audio reference.wav --ref_text "Text spoken in the reference." --gen_text ${exampleText(model)}`,
      "Synthesize speech",
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

export const glmTtsSnippets = cloneDownloadRun(
  "https://github.com/zai-org/GLM-TTS",
  "ckpt",
  sh`python glmtts_inference.py --data=example_zh --exp_name=_test --use_cache`,
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

/** SongGeneration needs its shared runtime files (ckpt/, third_party/) beside the model folder it is given. */
export function songGenerationSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/tencent-ailab/SongGeneration
cd SongGeneration
pip install -r requirements.txt
hf download lglg666/SongGeneration-Runtime --local-dir .
hf download ${model.id} --local-dir ./songgeneration_model
sh generate.sh ./songgeneration_model sample/lyrics.jsonl sample/output`,
      "Download and run",
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

/** Mini-Omni2's local test fetches the checkpoint into ./checkpoint and answers the bundled samples. */
export function miniOmni2Snippets(): LibrarySnippet[] {
  return [
    snippet(
      sh`git clone https://github.com/gpt-omni/mini-omni2
cd mini-omni2
pip install -r requirements.txt
python inference_vision.py`,
      "Run the bundled samples",
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
