import { tensorflowttsSnippets, whisperkitSnippets } from "../snippets/audio.js";
import { tensorboardSnippets, tensorflowSnippets, tfliteSnippets } from "../snippets/formats.js";
import { tfKerasSnippets } from "../snippets/keras.js";
import { transformersJsSnippets, vllmSnippets } from "../snippets/llm.js";
import { timesfmSnippets } from "../snippets/misc.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import {
  tabpfnSnippets,
  threeDTopiaXlSnippets,
  ticClipSnippets,
  videoprismSnippets,
  vuiSnippets,
} from "../snippets/research.js";
import { wan21Snippets, wan22Snippets } from "../snippets/research-scripts.js";
import { transformersSnippets } from "../snippets/transformers.js";
import { timmSnippets, ultralyticsSnippets, yolov10Snippets } from "../snippets/vision.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries T-Z and those starting with a digit, keyed by the `library_name` their models declare. */
export const LIBRARIES_T_TO_Z = {
  tabpfn: researchRepo("TabPFN", "https://github.com/PriorLabs/TabPFN", {
    docsUrl: "https://priorlabs.ai/docs",
    snippets: tabpfnSnippets,
  }),
  "tencent-song-generation": researchRepo(
    "SongGeneration",
    "https://github.com/tencent-ailab/SongGeneration",
    {
      countDownloads: `path:"ckpt/songgeneration_base/model.pt"`,
    },
  ),
  tensorboard: {
    prettyLabel: "TensorBoard",
    repoName: "tensorboard",
    repoUrl: "https://github.com/tensorflow/tensorboard",
    docsUrl: "https://huggingface.co/docs/hub/tensorboard",
    snippets: tensorboardSnippets,
    filter: true,
    countDownloads: `path_prefix:"runs/"`,
  },
  tensorflowtts: {
    prettyLabel: "TensorFlowTTS",
    repoName: "TensorFlowTTS",
    repoUrl: "https://github.com/TensorSpeech/TensorFlowTTS",
    docsUrl: readme("https://github.com/TensorSpeech/TensorFlowTTS"),
    snippets: tensorflowttsSnippets,
    filter: false,
  },
  terratorch: researchRepo("TerraTorch", "https://github.com/IBM/terratorch", {
    docsUrl: "https://ibm.github.io/terratorch/",
    countDownloads: `path_extension:"pt"`,
  }),
  tf: {
    prettyLabel: "TensorFlow",
    repoName: "tensorflow",
    repoUrl: "https://github.com/tensorflow/tensorflow",
    docsUrl: "https://www.tensorflow.org/api_docs",
    snippets: tensorflowSnippets,
    filter: true,
    countDownloads: `path:"saved_model.pb" OR path_extension:"h5"`,
  },
  "tf-keras": {
    prettyLabel: "TF-Keras",
    repoName: "TF-Keras",
    repoUrl: "https://github.com/keras-team/tf-keras",
    docsUrl: "https://huggingface.co/docs/hub/tf-keras",
    snippets: tfKerasSnippets,
    filter: true,
    countDownloads: `path:"saved_model.pb"`,
  },
  tflite: {
    prettyLabel: "LiteRT",
    repoName: "LiteRT",
    repoUrl: "https://github.com/google-ai-edge/LiteRT",
    docsUrl: "https://ai.google.dev/edge/litert",
    snippets: tfliteSnippets,
    filter: true,
    countDownloads: `path_extension:"tflite"`,
  },
  "tic-clip": researchRepo("TiC-CLIP", "https://github.com/apple/ml-tic-clip", {
    countDownloads: `path_extension:"pt" AND path_prefix:"checkpoints/"`,
    snippets: ticClipSnippets,
  }),
  timesfm: {
    prettyLabel: "TimesFM",
    repoName: "timesfm",
    repoUrl: "https://github.com/google-research/timesfm",
    docsUrl: readme("https://github.com/google-research/timesfm"),
    snippets: timesfmSnippets,
    filter: false,
    countDownloads: `path:"checkpoints/checkpoint_1100000/state/checkpoint" OR path:"checkpoints/checkpoint_2150000/state/checkpoint" OR path_extension:"ckpt"`,
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
  tirex: {
    prettyLabel: "TiRex",
    repoName: "TiRex",
    repoUrl: "https://github.com/NX-AI/tirex",
    docsUrl: readme("https://github.com/NX-AI/tirex"),
    snippets: P.tirex,
    filter: false,
    countDownloads: `path_extension:"ckpt"`,
  },
  torchgeo: researchRepo("TorchGeo", "https://github.com/microsoft/torchgeo", {
    docsUrl: "https://torchgeo.readthedocs.io/",
    countDownloads: `path_extension:"pt" OR path_extension:"pth"`,
  }),
  transformers: {
    prettyLabel: "Transformers",
    repoName: "🤗/transformers",
    repoUrl: "https://github.com/huggingface/transformers",
    docsUrl: "https://huggingface.co/docs/transformers",
    snippets: transformersSnippets,
    filter: true,
  },
  "transformers.js": {
    prettyLabel: "Transformers.js",
    repoName: "transformers.js",
    repoUrl: "https://github.com/huggingface/transformers.js",
    docsUrl: "https://huggingface.co/docs/transformers.js",
    snippets: transformersJsSnippets,
    filter: true,
  },
  trellis: {
    prettyLabel: "Trellis",
    repoName: "Trellis",
    repoUrl: "https://github.com/microsoft/TRELLIS",
    docsUrl: readme("https://github.com/microsoft/TRELLIS"),
    snippets: P.trellis,
    filter: false,
    countDownloads: `path_extension:"safetensors"`,
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
  uni2ts: {
    prettyLabel: "Uni2TS",
    repoName: "uni2ts",
    repoUrl: "https://github.com/SalesforceAIResearch/uni2ts",
    docsUrl: readme("https://github.com/SalesforceAIResearch/uni2ts"),
    snippets: P.uni2ts,
    filter: false,
  },
  "uni-3dar": researchRepo("Uni-3DAR", "https://github.com/dptech-corp/Uni-3DAR", {
    countDownloads: `path_extension:"pt"`,
  }),
  "unity-sentis": researchRepo("unity-sentis", "https://github.com/Unity-Technologies/sentis-samples", {
    docsUrl: "https://docs.unity3d.com/Packages/com.unity.sentis@latest",
    filter: true,
    countDownloads: `path_extension:"sentis"`,
  }),
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
  vibevoice: {
    prettyLabel: "VibeVoice",
    repoName: "VibeVoice",
    repoUrl: "https://github.com/microsoft/VibeVoice",
    docsUrl: readme("https://github.com/microsoft/VibeVoice"),
    snippets: P.vibevoice,
    filter: false,
  },
  videoprism: researchRepo("VideoPrism", "https://github.com/google-deepmind/videoprism", {
    countDownloads: `path_extension:"npz"`,
    snippets: videoprismSnippets,
  }),
  vllm: {
    prettyLabel: "vLLM",
    repoName: "vllm",
    repoUrl: "https://github.com/vllm-project/vllm",
    docsUrl: "https://docs.vllm.ai/en/latest/",
    snippets: vllmSnippets,
    filter: false,
  },
  voicecraft: {
    prettyLabel: "VoiceCraft",
    repoName: "VoiceCraft",
    repoUrl: "https://github.com/jasonppy/VoiceCraft",
    docsUrl: readme("https://github.com/jasonppy/VoiceCraft"),
    snippets: P.voicecraft,
    filter: false,
  },
  voxcpm: {
    prettyLabel: "VoxCPM",
    repoName: "VoxCPM",
    repoUrl: "https://github.com/OpenBMB/VoxCPM",
    docsUrl: readme("https://github.com/OpenBMB/VoxCPM"),
    snippets: P.voxcpm,
    filter: false,
  },
  vui: researchRepo("Vui", "https://github.com/fluxions-ai/vui", {
    countDownloads: `path_extension:"pt"`,
    snippets: vuiSnippets,
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
  whisperkit: {
    prettyLabel: "WhisperKit",
    repoName: "WhisperKit",
    repoUrl: "https://github.com/argmaxinc/WhisperKit",
    docsUrl: readme("https://github.com/argmaxinc/WhisperKit"),
    snippets: whisperkitSnippets,
    filter: false,
    countDownloads: `path_filename:"model" AND path_extension:"mil" AND _exists_:"path_prefix"`,
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
  zonos: {
    prettyLabel: "Zonos",
    repoName: "Zonos",
    repoUrl: "https://github.com/Zyphra/Zonos",
    docsUrl: readme("https://github.com/Zyphra/Zonos"),
    snippets: P.zonos,
    filter: false,
  },
  "3dtopia-xl": researchRepo("3DTopia-XL", "https://github.com/3DTopia/3DTopia-XL", {
    countDownloads: `path:"model_vae_fp16.pt"`,
    snippets: threeDTopiaXlSnippets,
  }),
} satisfies Record<string, ModelLibrary>;
