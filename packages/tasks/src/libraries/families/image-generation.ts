import { SANA_DEFAULT_SIZE, SANA_DEFAULT_STEPS } from "../../inputs/constants.js";
import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { exampleText } from "../examples.js";
import { cloneDownloadRun, fromPretrained, pipInstall, repoFile } from "../kit.js";
import { py, sh } from "../quote.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Image generation and editing libraries: diffusion pipelines, editing, story and glyph models. */

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

export const hunyuanDitSnippets = cloneDownloadRun(
  "https://github.com/Tencent/HunyuanDiT",
  "ckpts",
  sh`python sample_t2i.py --infer-mode fa --prompt "a cute cat" --no-enhance`,
);

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

export const IMAGE_GENERATION_LIBRARIES = {
  "minimax-h3": researchRepo("MiniMax H3", "https://github.com/MiniMax-AI/MiniMax-H3", {
    repoName: "MiniMax-H3",
    docsUrl: "https://huggingface.co/MiniMaxAI/MiniMax-H3",
    countDownloads: `path_extension:"safetensors" OR path_filename:"model_index" OR path_filename:"config" OR path:"modular_model_index.json"`,
  }),
  "bagel-mot": researchRepo("Bagel", "https://github.com/ByteDance-Seed/Bagel", {
    countDownloads: `path:"llm_config.json"`,
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
  fixer: researchRepo("Fixer", "https://github.com/nv-tlabs/Fixer", {
    snippets: fixerSnippets,
    countDownloads: `path:"pretrained/pretrained_fixer.pkl"`,
  }),
  "glyph-byt5": researchRepo("Glyph-ByT5", "https://github.com/AIGText/Glyph-ByT5", {
    countDownloads: `path:"checkpoints/byt5_model.pt"`,
  }),
  "hunyuan-dit": researchRepo("HunyuanDiT", "https://github.com/Tencent/HunyuanDiT", {
    countDownloads: `path:"pytorch_model_ema.pt" OR path:"pytorch_model_distill.pt"`,
    snippets: hunyuanDitSnippets,
  }),
  "infinite-you": researchRepo("InfiniteYou", "https://github.com/bytedance/InfiniteYou", {
    snippets: infiniteYouSnippets,
    countDownloads: `path:"infu_flux_v1.0/sim_stage1/image_proj_model.bin" OR path:"infu_flux_v1.0/aes_stage2/image_proj_model.bin"`,
  }),
  refiners: researchRepo("Refiners", "https://github.com/finegrain-ai/refiners", {
    docsUrl: "https://refine.rs/",
    countDownloads: `path:"model.safetensors"`,
    snippets: refinersSnippets,
  }),
  sana: researchRepo("Sana", "https://github.com/NVlabs/Sana", {
    docsUrl: "https://nvlabs.github.io/Sana/",
    countDownloads: `path_extension:"pth"`,
    snippets: sanaSnippets,
  }),
  "seed-story": researchRepo("SEED-Story", "https://github.com/TencentARC/SEED-Story", {
    countDownloads: `path:"cvlm_llama2_tokenizer/tokenizer.model"`,
  }),
  univa: {
    prettyLabel: "univa",
    repoName: "univa",
    repoUrl: "https://github.com/PKU-YuanGroup/UniWorld-V1",
    docsUrl: readme("https://github.com/PKU-YuanGroup/UniWorld-V1"),
    snippets: fromPretrained({
      module: "univa.models.qwen2p5vl.modeling_univa_qwen2p5vl",
      name: "UnivaQwen2p5VLForConditionalGeneration",
    }),
    filter: true,
    countDownloads: `path:"config.json"`,
  },
} satisfies Record<string, ModelLibrary>;
