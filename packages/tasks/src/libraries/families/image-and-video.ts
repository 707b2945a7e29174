import type { ModelData } from "../../model-data.js";
import { researchRepo } from "../catalogue/define.js";
import { modelName } from "../examples.js";
import { joinCode, py, sh } from "../quote.js";
import { fromPretrained, pipInstall } from "../snippets/kit.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Image, video and 3D generation and editing libraries added with the late-2026 catalogue. */

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
} satisfies Record<string, ModelLibrary>;
