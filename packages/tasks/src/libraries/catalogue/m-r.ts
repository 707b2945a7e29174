import { moshiSnippets, nemoSnippets, pyannoteSnippets } from "../snippets/audio.js";
import { onnxSnippets, openvinoSnippets, pytorchSnippets } from "../snippets/formats.js";
import { mlcLlmSnippets, mlxSnippets } from "../snippets/llm.js";
import { paddlenlpSnippets } from "../snippets/nlp.js";
import { peftSnippets } from "../snippets/peft.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import { mlAgentsSnippets } from "../snippets/rl.js";
import {
  mlxImageSnippets,
  openClipSnippets,
  paddleocrSnippets,
  perceptionEncoderSnippets,
} from "../snippets/vision.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries M-R, keyed by the `library_name` their models declare. */
export const LIBRARIES_M_TO_R = {
  "magenta-realtime": researchRepo("Magenta RT", "https://github.com/magenta/magenta-realtime", {
    countDownloads: `path:"checkpoints/llm_base_x4286_c1860k.tar" OR path:"checkpoints/llm_large_x3047_c1860k.tar"`,
  }),
  "magi-1": researchRepo("MAGI-1", "https://github.com/SandAI-org/MAGI-1", {
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
  }),
  merlin: researchRepo("Merlin", "https://github.com/StanfordMIMI/Merlin", {
    countDownloads: `path_extension:"pt"`,
  }),
  "mesh-anything": researchRepo("MeshAnything", "https://github.com/buaacyw/MeshAnything", {
    countDownloads: `path:"MeshAnything_350m.pth"`,
  }),
  mindspore: researchRepo("MindSpore", "https://github.com/mindspore-ai/mindspore", {
    repoName: "mindspore",
    docsUrl: "https://www.mindspore.cn/docs/en/master/index.html",
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
    countDownloads: `path:"model_config.yaml"`,
  }),
  mitie: researchRepo("MITIE", "https://github.com/mit-nlp/MITIE", {
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
  }),
  "open-sora": researchRepo("Open-Sora", "https://github.com/hpcaitech/Open-Sora", {
    countDownloads: `path:"Open_Sora_v2.safetensors"`,
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
  openvino: {
    prettyLabel: "OpenVINO",
    repoName: "openvino",
    repoUrl: "https://github.com/openvinotoolkit/openvino",
    docsUrl: "https://docs.openvino.ai/",
    snippets: openvinoSnippets,
    filter: true,
    countDownloads: `path_extension:"xml"`,
  },
  outetts: researchRepo("OuteTTS", "https://github.com/edwko/OuteTTS"),
  paddlenlp: {
    prettyLabel: "paddlenlp",
    repoName: "PaddleNLP",
    repoUrl: "https://github.com/PaddlePaddle/PaddleNLP",
    docsUrl: "https://huggingface.co/docs/hub/paddlenlp",
    snippets: paddlenlpSnippets,
    filter: true,
    countDownloads: `path:"model_config.json"`,
  },
  PaddleOCR: {
    prettyLabel: "PaddleOCR",
    repoName: "PaddleOCR",
    repoUrl: "https://github.com/PaddlePaddle/PaddleOCR",
    docsUrl: "https://paddlepaddle.github.io/PaddleOCR/latest/en/index.html",
    snippets: paddleocrSnippets,
    filter: true,
  },
  paddlepaddle: researchRepo("PaddlePaddle", "https://github.com/PaddlePaddle/Paddle", {
    docsUrl: "https://www.paddlepaddle.org.cn/documentation/docs/en/guides/index_en.html",
  }),
  peft: {
    prettyLabel: "PEFT",
    repoName: "PEFT",
    repoUrl: "https://github.com/huggingface/peft",
    docsUrl: "https://huggingface.co/docs/peft",
    snippets: peftSnippets,
    filter: true,
    countDownloads: `path:"adapter_config.json"`,
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
  "phantom-wan": researchRepo("Phantom", "https://github.com/Phantom-video/Phantom", {
    countDownloads: `path_extension:"pth"`,
  }),
  "pocket-tts": {
    prettyLabel: "Pocket TTS",
    repoName: "pocket-tts",
    repoUrl: "https://github.com/kyutai-labs/pocket-tts",
    docsUrl: readme("https://github.com/kyutai-labs/pocket-tts"),
    snippets: P.pocketTts,
    filter: false,
  },
  pruna: {
    prettyLabel: "Pruna",
    repoName: "pruna",
    repoUrl: "https://github.com/PrunaAI/pruna",
    docsUrl: "https://docs.pruna.ai/",
    snippets: P.pruna,
    filter: false,
  },
  "py-feat": researchRepo("Py-Feat", "https://github.com/cosanlab/py-feat", {
    docsUrl: "https://py-feat.org/",
  }),
  "pyannote-audio": {
    prettyLabel: "pyannote.audio",
    repoName: "pyannote-audio",
    repoUrl: "https://github.com/pyannote/pyannote-audio",
    docsUrl: readme("https://github.com/pyannote/pyannote-audio"),
    snippets: pyannoteSnippets,
    filter: true,
  },
  pyctcdecode: {
    prettyLabel: "pyctcdecode",
    repoName: "pyctcdecode",
    repoUrl: "https://github.com/kensho-technologies/pyctcdecode",
    docsUrl: readme("https://github.com/kensho-technologies/pyctcdecode"),
    snippets: P.pyctcdecode,
    filter: false,
  },
  pythae: {
    prettyLabel: "pythae",
    repoName: "pythae",
    repoUrl: "https://github.com/clementchadebec/benchmark_VAE",
    docsUrl: "https://pythae.readthedocs.io/en/latest/",
    snippets: P.pythae,
    filter: false,
  },
  pytorch: {
    prettyLabel: "PyTorch",
    repoName: "pytorch",
    repoUrl: "https://github.com/pytorch/pytorch",
    docsUrl: "https://pytorch.org/docs/stable/index.html",
    snippets: pytorchSnippets,
    filter: true,
    countDownloads: `path_extension:"bin" OR path_extension:"pt" OR path_extension:"pth"`,
  },
  pxia: {
    prettyLabel: "pxia",
    repoName: "pxia",
    repoUrl: "https://github.com/not-lain/pxia",
    docsUrl: readme("https://github.com/not-lain/pxia"),
    snippets: P.pxia,
    filter: false,
  },
  recurrentgemma: researchRepo("RecurrentGemma", "https://github.com/google-deepmind/recurrentgemma", {
    countDownloads: `path:"tokenizer.model"`,
  }),
  refiners: researchRepo("Refiners", "https://github.com/finegrain-ai/refiners", {
    docsUrl: "https://refine.rs/",
    countDownloads: `path:"model.safetensors"`,
  }),
  relik: {
    prettyLabel: "Relik",
    repoName: "Relik",
    repoUrl: "https://github.com/SapienzaNLP/relik",
    docsUrl: readme("https://github.com/SapienzaNLP/relik"),
    snippets: P.relik,
    filter: false,
  },
  renderformer: {
    prettyLabel: "RenderFormer",
    repoName: "RenderFormer",
    repoUrl: "https://github.com/microsoft/renderformer",
    docsUrl: readme("https://github.com/microsoft/renderformer"),
    snippets: P.renderformer,
    filter: false,
  },
  reverb: researchRepo("Reverb", "https://github.com/revdotcom/reverb"),
  rkllm: researchRepo("RKLLM", "https://github.com/airockchip/rknn-llm", {
    countDownloads: `path_extension:"rkllm"`,
  }),
  rust: researchRepo("Rust", "https://github.com/huggingface/candle", {
    docsUrl: "https://huggingface.github.io/candle/",
  }),
} satisfies Record<string, ModelLibrary>;
