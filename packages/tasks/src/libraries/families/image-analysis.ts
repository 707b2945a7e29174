import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { downloadWeights, fromPretrained, pipInstall, repoFile } from "../kit.js";
import { py, sh } from "../quote.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/** Image analysis libraries: segmentation and matting, depth, matching, faces, OCR and image encoders. */

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

export const IMAGE_ANALYSIS_LIBRARIES = {
  nobg: {
    prettyLabel: "nobg",
    repoName: "nobg",
    repoUrl: "https://github.com/feyninc/nobg",
    docsUrl: "https://github.com/feyninc/nobg#readme",
    snippets: nobgSnippets,
    filter: false,
  },
  araclip: {
    prettyLabel: "AraClip",
    repoName: "AraClip",
    repoUrl: "https://github.com/Arabic-Clip/Araclip",
    docsUrl: readme("https://github.com/Arabic-Clip/Araclip"),
    snippets: fromPretrained({
      pip: "git+https://github.com/Arabic-Clip/Araclip.git",
      module: "araclip",
      name: "AraClip",
    }),
    filter: false,
  },
  bboxmaskpose: researchRepo("BBoxMaskPose", "https://github.com/MiraPurkrabek/BBoxMaskPose", {
    countDownloads: `path_extension:"pth"`,
  }),
  ben2: {
    prettyLabel: "BEN2",
    repoName: "BEN2",
    repoUrl: "https://github.com/PramaLLC/BEN2",
    docsUrl: readme("https://github.com/PramaLLC/BEN2"),
    snippets: fromPretrained({
      pip: "git+https://github.com/PramaLLC/BEN2.git",
      module: "ben2",
      name: "BEN_Base",
      usage: py`model.to("cuda").eval()`,
    }),
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
  collectorvision: {
    prettyLabel: "CollectorVision",
    repoName: "CollectorVision",
    repoUrl: "https://github.com/HanClinto/CollectorVision",
    docsUrl: readme("https://github.com/HanClinto/CollectorVision"),
    snippets: collectorVisionSnippets,
    filter: false,
    countDownloads: `path_extension:"onnx"`,
  },
  "depth-anything-v2": researchRepo("DepthAnythingV2", "https://github.com/DepthAnything/Depth-Anything-V2", {
    repoName: "Depth Anything V2",
    countDownloads: `path_extension:"pth"`,
    snippets: depthAnythingV2Snippets,
  }),
  "describe-anything": researchRepo("Describe Anything", "https://github.com/NVlabs/describe-anything", {
    snippets: describeAnythingSnippets,
  }),
  eupe: researchRepo("EUPE", "https://github.com/facebookresearch/EUPE", {
    countDownloads: `path_extension:"pt"`,
  }),
  "image-matching-models": researchRepo(
    "Image Matching Models",
    "https://github.com/alexstoken/image-matching-models",
    {
      countDownloads: `path_extension:"safetensors"`,
    },
  ),
  lightglue: researchRepo("LightGlue", "https://github.com/cvg/LightGlue", {
    countDownloads: `path_extension:"pth" OR path:"config.json"`,
  }),
  lvface: researchRepo("LVFace", "https://github.com/bytedance/LVFace", {
    countDownloads: `path_extension:"pt" OR path_extension:"onnx"`,
    snippets: lvfaceSnippets,
  }),
  monkeyocr: researchRepo("MonkeyOCR", "https://github.com/Yuliang-Liu/MonkeyOCR", {
    snippets: monkeyocrSnippets,
    repoName: "monkeyocr",
    countDownloads: `path:"Recognition/config.json"`,
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
    snippets: fromPretrained({
      pip: "pythae",
      module: "pythae.models",
      name: "AutoModel",
      method: "load_from_hf_hub",
    }),
    filter: false,
  },
  sapiens: researchRepo("sapiens", "https://github.com/facebookresearch/sapiens", {
    snippets: sapiensSnippets,
    countDownloads: `path_extension:"pt2" OR path_extension:"pth" OR path_extension:"onnx"`,
  }),
  sapiens2: researchRepo("sapiens2", "https://github.com/facebookresearch/sapiens2", {
    countDownloads: `path_extension:"safetensors"`,
  }),
  "segmentation-models-pytorch": {
    prettyLabel: "Segmentation Models",
    repoName: "segmentation_models.pytorch",
    repoUrl: "https://github.com/qubvel-org/segmentation_models.pytorch",
    docsUrl: "https://smp.readthedocs.io/en/latest/",
    snippets: fromPretrained({
      pip: "segmentation-models-pytorch",
      module: "segmentation_models_pytorch",
      name: "from_pretrained",
      method: null,
    }),
    filter: false,
  },
  "tic-clip": researchRepo("TiC-CLIP", "https://github.com/apple/ml-tic-clip", {
    countDownloads: `path_extension:"pt" AND path_prefix:"checkpoints/"`,
    snippets: ticClipSnippets,
  }),
  vismatch: researchRepo("VisMatch", "https://github.com/gmberton/vismatch", {
    countDownloads: `path:"vismatch.yaml"`,
  }),
} satisfies Record<string, ModelLibrary>;
