import type { ModelData } from "../../model-data.js";
import { readme } from "../define.js";
import { DEFAULT_IMAGE_LABELS, EXAMPLE_IMAGE_URL, modelName } from "../examples.js";
import { pipInstall, repoFile } from "../kit.js";
import { MESSAGE_TITLE, UNKNOWN_MODEL_TYPE } from "../messages.js";
import { comment, joinCode, py, pythonIdentifier, sh } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** Image, video and 3D libraries. */

export function timmSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import timm

model = timm.create_model(${`hf-hub:${model.id}`}, pretrained=True)
model.eval()

# The preprocessing the model was trained with
config = timm.data.resolve_data_config({}, model=model)
transform = timm.data.create_transform(**config)`,
      "Load the model",
    ),
  ];
}

export function openClipSnippets(model: ModelData): LibrarySnippet[] {
  const hub = `hf-hub:${model.id}`;
  return [
    snippet(
      py`import open_clip

model, preprocess_train, preprocess_val = open_clip.create_model_and_transforms(${hub})
tokenizer = open_clip.get_tokenizer(${hub})
text = tokenizer(${[...DEFAULT_IMAGE_LABELS]})`,
      "Load the model",
    ),
  ];
}

/** ultralytics needs the YOLO generation, which repositories carry as a tag such as "yolov8". */
export function ultralyticsSnippets(model: ModelData): LibrarySnippet[] {
  const version = model.tags.find((tag) => /^yolov\d+$/.test(tag));
  const load = version
    ? py`from ultralytics import ${pythonIdentifier(`YOLOv${version.slice(5)}`, "YOLO")}

model = ${pythonIdentifier(`YOLOv${version.slice(5)}`, "YOLO")}.from_pretrained(${model.id})`
    : py`from huggingface_hub import hf_hub_download
from ultralytics import YOLO

# No YOLO version tag on this repository: load its weights file directly.
model = YOLO(hf_hub_download(${model.id}, ${repoFile(model, [".pt"], `${modelName(model)}.pt`)}))`;
  return [
    pipInstall(["ultralytics"]),
    snippet(py`${load}\nresults = model.predict(source=${EXAMPLE_IMAGE_URL}, save=True)`, "Load and predict"),
  ];
}

export function yolov10Snippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["git+https://github.com/THU-MIG/yolov10.git"]),
    snippet(
      py`from ultralytics import YOLOv10

model = YOLOv10.from_pretrained(${model.id})
results = model.predict(source=${EXAMPLE_IMAGE_URL}, save=True)`,
      "Load and predict",
    ),
  ];
}

export function sam2Snippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import numpy as np
import torch
from PIL import Image
from sam2.sam2_image_predictor import SAM2ImagePredictor

predictor = SAM2ImagePredictor.from_pretrained(${model.id})

image = np.array(Image.open("image.jpg").convert("RGB"))
with torch.inference_mode():
    predictor.set_image(image)
    masks, scores, _ = predictor.predict(point_coords=np.array([[500, 375]]), point_labels=np.array([1]))`,
      "Segment an image",
    ),
    snippet(
      py`import torch
from sam2.sam2_video_predictor import SAM2VideoPredictor

predictor = SAM2VideoPredictor.from_pretrained(${model.id})

with torch.inference_mode():
    state = predictor.init_state("video_frames_dir")`,
      "Track in a video",
    ),
  ];
}

export function birefnetSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from transformers import AutoModelForImageSegmentation

birefnet = AutoModelForImageSegmentation.from_pretrained(${model.id}, trust_remote_code=True)`,
      "Load with transformers",
    ),
  ];
}

export function doctrSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["python-doctr"]),
    snippet(
      py`from doctr.io import DocumentFile
from doctr.models import from_hub, ocr_predictor

model = from_hub(${model.id})
# Use it as the detection or recognition part of an OCR predictor, e.g.:
predictor = ocr_predictor(det_arch=model, reco_arch="crnn_mobilenet_v3_small", pretrained=True)
result = predictor(DocumentFile.from_images(["page.jpg"]))`,
      "Load the model",
    ),
  ];
}

export function deepforestSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["deepforest"]),
    snippet(
      py`from deepforest import main

model = main.deepforest()
model.load_model(model_name=${model.id})
boxes = model.predict_image(path="image.png")`,
      "Load the model",
    ),
  ];
}

export function depthProSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(sh`hf download ${model.id} --local-dir checkpoints`, "Download the checkpoint"),
    snippet(
      py`import depth_pro

model, transform = depth_pro.create_model_and_transforms()
model.eval()

image, _, f_px = depth_pro.load_rgb("example.png")
prediction = model.infer(transform(image), f_px=f_px)
depth = prediction["depth"]  # metres`,
      "Estimate depth",
    ),
  ];
}

export function mlxImageSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["mlx-image"]),
    snippet(
      py`from mlxim.model import create_model

model = create_model(${model.id})
model.eval()`,
      "Load the model",
    ),
  ];
}

/** Perception Encoder configs are named like their repositories (facebook/PE-Core-L14-336 -> PE-Core-L14-336). */
export function perceptionEncoderSnippets(model: ModelData): LibrarySnippet[] {
  const config = modelName(model);
  const lines = [
    py`import core.vision_encoder.pe as pe`,
    py``,
    model.id.includes("Core")
      ? py`model = pe.CLIP.from_config(${config}, pretrained=True)`
      : py`model = pe.VisionTransformer.from_config(${config}, pretrained=True)`,
  ];
  return [snippet(joinCode("python", lines), "Load the model")];
}

export function paddleocrSnippets(model: ModelData): LibrarySnippet[] {
  const classes: Record<string, string> = {
    textline_detection: "TextDetection",
    textline_recognition: "TextRecognition",
    seal_text_detection: "SealTextDetection",
    doc_img_unwarping: "TextImageUnwarping",
    doc_img_orientation_classification: "DocImgOrientationClassification",
    textline_orientation_classification: "TextLineOrientationClassification",
    formula_recognition: "FormulaRecognition",
    layout_detection: "LayoutDetection",
    table_cells_detection: "TableCellsDetection",
    table_structure_recognition: "TableStructureRecognition",
  };
  const tag = model.tags.find((t) => Object.hasOwn(classes, t));
  if (tag === undefined) return [snippet(comment("python", UNKNOWN_MODEL_TYPE), MESSAGE_TITLE)];
  const cls = pythonIdentifier(classes[tag], "TextDetection");
  return [
    pipInstall(["paddleocr"]),
    snippet(
      py`from paddleocr import ${cls}

model = ${cls}(model_name=${modelName(model)})
for result in model.predict(input="image.png", batch_size=1):
    result.print()`,
      "Run the model",
    ),
  ];
}

export function diffusionkitSnippets(model: ModelData): LibrarySnippet[] {
  const flux = model.tags.includes("flux");
  const cls = pythonIdentifier(flux ? "FluxPipeline" : "DiffusionPipeline", "DiffusionPipeline");
  return [
    pipInstall(["diffusionkit"]),
    snippet(
      py`from diffusionkit.mlx import ${cls}

pipeline = ${cls}(model_version=${model.id}, low_memory_mode=True, a16=True, w16=True)
image, _ = pipeline.generate_image("a photo of a cat", cfg_weight=${flux ? 0 : 5}, num_steps=${flux ? 4 : 50}, latent_size=(64, 64))`,
      "Generate an image",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const VISION_LIBRARIES = {
  birefnet: {
    prettyLabel: "BiRefNet",
    repoName: "BiRefNet",
    repoUrl: "https://github.com/ZhengPeng7/BiRefNet",
    docsUrl: readme("https://github.com/ZhengPeng7/BiRefNet"),
    snippets: birefnetSnippets,
    filter: false,
  },
  deepforest: {
    prettyLabel: "DeepForest",
    repoName: "deepforest",
    repoUrl: "https://github.com/weecology/DeepForest",
    docsUrl: "https://deepforest.readthedocs.io/en/latest/",
    snippets: deepforestSnippets,
    filter: false,
  },
  "depth-pro": {
    prettyLabel: "Depth Pro",
    repoName: "Depth Pro",
    repoUrl: "https://github.com/apple/ml-depth-pro",
    docsUrl: readme("https://github.com/apple/ml-depth-pro"),
    snippets: depthProSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  diffusionkit: {
    prettyLabel: "DiffusionKit",
    repoName: "DiffusionKit",
    repoUrl: "https://github.com/argmaxinc/DiffusionKit",
    docsUrl: readme("https://github.com/argmaxinc/DiffusionKit"),
    snippets: diffusionkitSnippets,
    filter: false,
  },
  doctr: {
    prettyLabel: "docTR",
    repoName: "doctr",
    repoUrl: "https://github.com/mindee/doctr",
    docsUrl: "https://mindee.github.io/doctr/",
    snippets: doctrSnippets,
    filter: false,
  },
  "mlx-image": {
    prettyLabel: "mlx-image",
    repoName: "mlx-image",
    repoUrl: "https://github.com/riccardomusmeci/mlx-image",
    docsUrl: "https://huggingface.co/docs/hub/mlx-image",
    snippets: mlxImageSnippets,
    filter: false,
    countDownloads: `path:"model.safetensors"`,
  },
  open_clip: {
    prettyLabel: "OpenCLIP",
    repoName: "OpenCLIP",
    repoUrl: "https://github.com/mlfoundations/open_clip",
    docsUrl: "https://huggingface.co/docs/hub/open_clip",
    snippets: openClipSnippets,
    filter: true,
    countDownloads: `path:"open_clip_model.safetensors" OR path:"model.safetensors" OR path:"open_clip_pytorch_model.bin" OR path:"pytorch_model.bin"`,
  },
  PaddleOCR: {
    prettyLabel: "PaddleOCR",
    repoName: "PaddleOCR",
    repoUrl: "https://github.com/PaddlePaddle/PaddleOCR",
    docsUrl: "https://paddlepaddle.github.io/PaddleOCR/latest/en/index.html",
    snippets: paddleocrSnippets,
    filter: true,
  },
  "perception-encoder": {
    prettyLabel: "PerceptionEncoder",
    repoName: "PerceptionModels",
    repoUrl: "https://github.com/facebookresearch/perception_models",
    docsUrl: readme("https://github.com/facebookresearch/perception_models"),
    snippets: perceptionEncoderSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  sam2: {
    prettyLabel: "sam2",
    repoName: "sam2",
    repoUrl: "https://github.com/facebookresearch/sam2",
    docsUrl: readme("https://github.com/facebookresearch/sam2"),
    snippets: sam2Snippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  timm: {
    prettyLabel: "timm",
    repoName: "pytorch-image-models",
    repoUrl: "https://github.com/huggingface/pytorch-image-models",
    docsUrl: "https://huggingface.co/docs/timm",
    snippets: timmSnippets,
    filter: true,
    countDownloads: `path:"pytorch_model.bin" OR path:"model.safetensors"`,
  },
  ultralytics: {
    prettyLabel: "ultralytics",
    repoName: "ultralytics",
    repoUrl: "https://github.com/ultralytics/ultralytics",
    docsUrl: "https://docs.ultralytics.com/",
    snippets: ultralyticsSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  yolov10: {
    prettyLabel: "YOLOv10",
    repoName: "YOLOv10",
    repoUrl: "https://github.com/THU-MIG/yolov10",
    docsUrl: readme("https://github.com/THU-MIG/yolov10"),
    snippets: yolov10Snippets,
    filter: false,
    countDownloads: `path_extension:"pt" OR path_extension:"safetensors"`,
  },
  yolov26: {
    prettyLabel: "YOLOv26",
    repoName: "ultralytics",
    repoUrl: "https://github.com/ultralytics/ultralytics",
    docsUrl: "https://docs.ultralytics.com/models/yolo26/",
    snippets: ultralyticsSnippets,
    filter: false,
    countDownloads: `path_extension:"pt" OR path_extension:"safetensors"`,
  },
} satisfies Record<string, ModelLibrary>;
