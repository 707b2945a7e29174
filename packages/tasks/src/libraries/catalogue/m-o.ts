import { mindsporeSnippets } from "../families/frameworks-and-hardware.js";
import {
  magi1Snippets,
  meshAnythingSnippets,
  mlSharpSnippets,
  monkeyocrSnippets,
  openOasisSnippets,
  openSoraSnippets,
} from "../families/image-and-video.js";
import { medvaeSnippets, merlinSnippets } from "../families/science-and-health.js";
import { magentaRealtimeSnippets, miniOmni2Snippets, outettsSnippets } from "../families/speech-and-music.js";
import { moshiSnippets, nemoSnippets } from "../snippets/audio.js";
import { mitieSnippets, onnxSnippets, openvinoSnippets } from "../snippets/formats.js";
import { mlcLlmSnippets, mlxSnippets } from "../snippets/llm.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import { mlAgentsSnippets } from "../snippets/rl.js";
import { mlxImageSnippets, openClipSnippets } from "../snippets/vision.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries M-O, keyed by the `library_name` their models declare. */
export const LIBRARIES_M_TO_O = {
  "magenta-realtime": researchRepo("Magenta RT", "https://github.com/magenta/magenta-realtime", {
    countDownloads: `path:"checkpoints/llm_base_x4286_c1860k.tar" OR path:"checkpoints/llm_large_x3047_c1860k.tar"`,
    snippets: magentaRealtimeSnippets,
  }),
  "magi-1": researchRepo("MAGI-1", "https://github.com/SandAI-org/MAGI-1", {
    snippets: magi1Snippets,
    countDownloads: `path:"ckpt/vae/config.json"`,
  }),
  "mamba-ssm": {
    prettyLabel: "MambaSSM",
    repoName: "MambaSSM",
    repoUrl: "https://github.com/state-spaces/mamba",
    docsUrl: readme("https://github.com/state-spaces/mamba"),
    snippets: P.mambaSsm,
    filter: false,
  },
  "manas-1": researchRepo("MANAS-1", "https://github.com/NeurodxAI/manas-1", {
    countDownloads: `path_extension:"pt"`,
  }),
  "mars5-tts": {
    prettyLabel: "MARS5-TTS",
    repoName: "MARS5-TTS",
    repoUrl: "https://github.com/Camb-ai/MARS5-TTS",
    docsUrl: readme("https://github.com/Camb-ai/MARS5-TTS"),
    snippets: P.mars5,
    filter: false,
    countDownloads: `path:"mars5_ar.safetensors"`,
  },
  matanyone: {
    prettyLabel: "MatAnyone",
    repoName: "MatAnyone",
    repoUrl: "https://github.com/pq-yang/MatAnyone",
    docsUrl: readme("https://github.com/pq-yang/MatAnyone"),
    snippets: P.matanyone,
    filter: false,
  },
  "mbrl-lib": researchRepo("MBRL-Lib", "https://github.com/facebookresearch/mbrl-lib", {
    docsUrl: "https://facebookresearch.github.io/mbrl-lib/",
  }),
  medvae: researchRepo("MedVAE", "https://github.com/StanfordMIMI/MedVAE", {
    countDownloads: `path_extension:"ckpt"`,
    snippets: medvaeSnippets,
  }),
  merlin: researchRepo("Merlin", "https://github.com/StanfordMIMI/Merlin", {
    countDownloads: `path_extension:"pt"`,
    snippets: merlinSnippets,
  }),
  "mesh-anything": researchRepo("MeshAnything", "https://github.com/buaacyw/MeshAnything", {
    snippets: meshAnythingSnippets,
    countDownloads: `path:"MeshAnything_350m.pth"`,
  }),
  mindspore: researchRepo("MindSpore", "https://github.com/mindspore-ai/mindspore", {
    repoName: "mindspore",
    docsUrl: "https://www.mindspore.cn/docs/en/master/index.html",
    snippets: mindsporeSnippets,
  }),
  miditok: {
    prettyLabel: "MidiTok",
    repoName: "MidiTok",
    repoUrl: "https://github.com/Natooz/MidiTok",
    docsUrl: "https://miditok.readthedocs.io/en/latest/",
    snippets: P.miditok,
    filter: false,
    countDownloads: `path:"tokenizer.json"`,
  },
  "mini-omni2": researchRepo("Mini-Omni2", "https://github.com/gpt-omni/mini-omni2", {
    snippets: miniOmni2Snippets,
    countDownloads: `path:"model_config.yaml"`,
  }),
  mitie: researchRepo("MITIE", "https://github.com/mit-nlp/MITIE", {
    snippets: mitieSnippets,
    countDownloads: `path_filename:"total_word_feature_extractor"`,
  }),
  "ml-agents": {
    prettyLabel: "ml-agents",
    repoName: "ml-agents",
    repoUrl: "https://github.com/Unity-Technologies/ml-agents",
    docsUrl: "https://huggingface.co/docs/hub/ml-agents",
    snippets: mlAgentsSnippets,
    filter: true,
    countDownloads: `path_extension:"onnx"`,
  },
  "ml-sharp": {
    prettyLabel: "Sharp",
    repoName: "ml-sharp",
    repoUrl: "https://github.com/apple/ml-sharp",
    docsUrl: readme("https://github.com/apple/ml-sharp"),
    snippets: mlSharpSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  "mlc-llm": {
    prettyLabel: "MLC-LLM",
    repoName: "MLC-LLM",
    repoUrl: "https://github.com/mlc-ai/mlc-llm",
    docsUrl: "https://llm.mlc.ai/docs/",
    snippets: mlcLlmSnippets,
    filter: false,
    countDownloads: `path:"mlc-chat-config.json"`,
  },
  mlx: {
    prettyLabel: "MLX",
    repoName: "MLX",
    repoUrl: "https://github.com/ml-explore/mlx",
    docsUrl: "https://huggingface.co/docs/hub/mlx",
    snippets: mlxSnippets,
    filter: true,
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
  model2vec: {
    prettyLabel: "Model2Vec",
    repoName: "model2vec",
    repoUrl: "https://github.com/MinishLab/model2vec",
    docsUrl: readme("https://github.com/MinishLab/model2vec"),
    snippets: P.model2vec,
    filter: false,
  },
  monkeyocr: researchRepo("MonkeyOCR", "https://github.com/Yuliang-Liu/MonkeyOCR", {
    snippets: monkeyocrSnippets,
    repoName: "monkeyocr",
    countDownloads: `path:"Recognition/config.json"`,
  }),
  moshi: {
    prettyLabel: "Moshi",
    repoName: "Moshi",
    repoUrl: "https://github.com/kyutai-labs/moshi",
    docsUrl: readme("https://github.com/kyutai-labs/moshi"),
    snippets: moshiSnippets,
    filter: false,
    countDownloads: `path:"tokenizer-e351c8d8-checkpoint125.safetensors"`,
  },
  mtvcraft: researchRepo("MTVCraft", "https://github.com/baaivision/MTVCraft", {
    countDownloads: `path:"vae/3d-vae.pt"`,
  }),
  nemo: {
    prettyLabel: "NeMo",
    repoName: "NeMo",
    repoUrl: "https://github.com/NVIDIA/NeMo",
    docsUrl: "https://docs.nvidia.com/nemo-framework/user-guide/latest/overview.html",
    snippets: nemoSnippets,
    filter: true,
    countDownloads: `path_extension:"nemo" OR path:"model_config.yaml"`,
  },
  "nv-medtech": researchRepo("NV-MedTech", "https://github.com/nvidia-medtech", {
    countDownloads: `path_extension:"pt" OR path_extension:"safetensors" OR path:"config.json"`,
  }),
  onnx: {
    prettyLabel: "ONNX",
    repoName: "onnxruntime",
    repoUrl: "https://github.com/microsoft/onnxruntime",
    docsUrl: "https://onnxruntime.ai/docs/",
    snippets: onnxSnippets,
    filter: true,
    countDownloads: `path_extension:"onnx"`,
  },
  "open-oasis": researchRepo("open-oasis", "https://github.com/etched-ai/open-oasis", {
    countDownloads: `path:"oasis500m.safetensors"`,
    snippets: openOasisSnippets,
  }),
  "open-sora": researchRepo("Open-Sora", "https://github.com/hpcaitech/Open-Sora", {
    countDownloads: `path:"Open_Sora_v2.safetensors"`,
    snippets: openSoraSnippets,
  }),
  open_clip: {
    prettyLabel: "OpenCLIP",
    repoName: "OpenCLIP",
    repoUrl: "https://github.com/mlfoundations/open_clip",
    docsUrl: "https://huggingface.co/docs/hub/open_clip",
    snippets: openClipSnippets,
    filter: true,
    countDownloads: `path:"open_clip_model.safetensors" OR path:"model.safetensors" OR path:"open_clip_pytorch_model.bin" OR path:"pytorch_model.bin"`,
  },
  openpeerllm: researchRepo("OpenPeerLLM", "https://huggingface.co/OpenPeerAI/OpenPeerLLM", {
    docsUrl: "https://huggingface.co/OpenPeerAI/OpenPeerLLM/blob/main/README.md",
    countDownloads: `path:".meta-huggingface.json"`,
  }),
  openvino: {
    prettyLabel: "OpenVINO",
    repoName: "openvino",
    repoUrl: "https://github.com/openvinotoolkit/openvino",
    docsUrl: "https://docs.openvino.ai/",
    snippets: openvinoSnippets,
    filter: true,
    countDownloads: `path_extension:"xml"`,
  },
  outetts: researchRepo("OuteTTS", "https://github.com/edwko/OuteTTS", { snippets: outettsSnippets }),
} satisfies Record<string, ModelLibrary>;
