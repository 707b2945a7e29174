import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { fromPretrained, repoFile } from "../kit.js";
import { py, sh } from "../quote.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** 3D libraries: shapes, scenes and Gaussians from images or text, meshes, rendering, human bodies. */

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

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const THREE_D_LIBRARIES = {
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
  "geometry-crafter": researchRepo("GeometryCrafter", "https://github.com/TencentARC/GeometryCrafter", {
    snippets: geometryCrafterSnippets,
    countDownloads: `path:"point_map_vae/diffusion_pytorch_model.safetensors"`,
  }),
  "hunyuan3d-2": {
    prettyLabel: "Hunyuan3D-2",
    repoName: "Hunyuan3D-2",
    repoUrl: "https://github.com/Tencent/Hunyuan3D-2",
    docsUrl: readme("https://github.com/Tencent/Hunyuan3D-2"),
    snippets: fromPretrained({
      pip: "git+https://github.com/Tencent/Hunyuan3D-2.git",
      module: "hy3dgen.shapegen",
      name: "Hunyuan3DDiTFlowMatchingPipeline",
      variable: "pipeline",
      usage: py`mesh = pipeline(image="image.png")[0]`,
    }),
    filter: false,
    countDownloads: `path_filename:"model_index" OR path_filename:"config"`,
  },
  lagernvs: researchRepo("LagerNVS", "https://github.com/facebookresearch/lagernvs", {
    snippets: lagerNvsSnippets,
    countDownloads: `path_extension:"pt"`,
  }),
  "lyra-2.0": researchRepo("Lyra-2.0", "https://github.com/nv-tlabs/lyra", {
    countDownloads: `path:"checkpoints/image_encoder/model.pth"`,
  }),
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
  renderformer: {
    prettyLabel: "RenderFormer",
    repoName: "RenderFormer",
    repoUrl: "https://github.com/microsoft/renderformer",
    docsUrl: readme("https://github.com/microsoft/renderformer"),
    snippets: fromPretrained({
      module: "renderformer",
      name: "RenderFormerRenderingPipeline",
      variable: "pipeline",
    }),
    filter: false,
  },
  "sam-3d-body": researchRepo("SAM 3D Body", "https://github.com/facebookresearch/sam-3d-body", {
    snippets: sam3dBodySnippets,
  }),
  "sam-3d-objects": researchRepo("SAM 3D Objects", "https://github.com/facebookresearch/sam-3d-objects", {
    snippets: sam3dObjectsSnippets,
  }),
  trellis: {
    prettyLabel: "Trellis",
    repoName: "Trellis",
    repoUrl: "https://github.com/microsoft/TRELLIS",
    docsUrl: readme("https://github.com/microsoft/TRELLIS"),
    snippets: fromPretrained({
      module: "trellis.pipelines",
      name: "TrellisImageTo3DPipeline",
      variable: "pipeline",
      usage: py`pipeline.cuda()`,
    }),
    filter: false,
    countDownloads: `path_extension:"safetensors"`,
  },
  trellis2: {
    prettyLabel: "TRELLIS.2",
    repoName: "TRELLIS.2",
    repoUrl: "https://github.com/microsoft/TRELLIS.2",
    docsUrl: readme("https://github.com/microsoft/TRELLIS.2"),
    snippets: fromPretrained({
      module: "trellis2.pipelines",
      name: "Trellis2ImageTo3DPipeline",
      variable: "pipeline",
      usage: py`pipeline.cuda()`,
    }),
    filter: false,
    countDownloads: `path_extension:"safetensors"`,
  },
  "3dtopia-xl": researchRepo("3DTopia-XL", "https://github.com/3DTopia/3DTopia-XL", {
    countDownloads: `path:"model_vae_fp16.pt"`,
    snippets: threeDTopiaXlSnippets,
  }),
} satisfies Record<string, ModelLibrary>;
