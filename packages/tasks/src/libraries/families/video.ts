import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { exampleText, modelName } from "../examples.js";
import { cloneDownloadRun, downloadWeights, fromPretrained, pipInstall, repoFile } from "../kit.js";
import { type Code, joinCode, py, sh } from "../quote.js";
import { type LibrarySnippet, type LibrarySnippetBuilder, type ModelLibrary, snippet } from "../types.js";

/** Video libraries: generation, animation and talking heads, world models, restoration, tracking. */

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

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const VIDEO_LIBRARIES = {
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
  "scail-2": researchRepo("SCAIL-2", "https://github.com/zai-org/SCAIL-2", {
    countDownloads: `path:"model/1/fsdp2_rank_0000_checkpoint.pt"`,
  }),
  champ: researchRepo("Champ", "https://github.com/fudan-generative-vision/champ", {
    snippets: champSnippets,
    countDownloads: `path:"champ/motion_module.pth"`,
  }),
  cosmos: researchRepo("Cosmos", "https://github.com/nvidia-cosmos", {
    docsUrl: "https://docs.nvidia.com/cosmos/latest/",
    countDownloads: `path:"config.json" OR path_extension:"pt"`,
  }),
  cotracker: researchRepo("CoTracker", "https://github.com/facebookresearch/co-tracker", {
    docsUrl: "https://co-tracker.github.io/",
    countDownloads: `path_extension:"pth"`,
    snippets: cotrackerSnippets,
  }),
  genmo: researchRepo("Genmo", "https://github.com/genmoai/mochi", {
    countDownloads: `path:"vae_stats.json"`,
    snippets: mochiSnippets,
  }),
  hallo: researchRepo("Hallo", "https://github.com/fudan-generative-vision/hallo", {
    countDownloads: `path:"hallo/net.pth"`,
    snippets: halloSnippets,
  }),
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
  infinitetalk: researchRepo("InfiniteTalk", "https://github.com/MeiGen-AI/InfiniteTalk", {
    snippets: infiniteTalkSnippets,
    countDownloads: `path_extension:"safetensors"`,
  }),
  liveportrait: researchRepo("LivePortrait", "https://github.com/KwaiVGI/LivePortrait", {
    countDownloads: `path:"liveportrait/landmark.onnx"`,
    snippets: livePortraitSnippets,
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
    snippets: fromPretrained({
      pip: "git+https://github.com/pq-yang/MatAnyone.git",
      module: "matanyone",
      name: "InferenceCore",
      method: null,
      variable: "processor",
    }),
    filter: false,
  },
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
  seedvr: researchRepo("SeedVR", "https://github.com/ByteDance-Seed/SeedVR", {
    snippets: seedvrSnippets,
    countDownloads: `path_extension:"pth"`,
  }),
  "self-forcing": {
    prettyLabel: "Self-Forcing",
    repoName: "Self-Forcing",
    repoUrl: "https://github.com/guandeh17/Self-Forcing",
    docsUrl: readme("https://github.com/guandeh17/Self-Forcing"),
    snippets: selfForcingSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  "vfi-mamba": {
    prettyLabel: "VFIMamba",
    repoName: "VFIMamba",
    repoUrl: "https://github.com/MCG-NJU/VFIMamba",
    docsUrl: readme("https://github.com/MCG-NJU/VFIMamba"),
    snippets: fromPretrained({ module: "Trainer_finetune", name: "Model" }),
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
} satisfies Record<string, ModelLibrary>;
