import { paddlepaddleSnippets } from "../families/frameworks-and-hardware.js";
import { phantomWanSnippets, pyFeatSnippets, refinersSnippets } from "../families/image-and-video.js";
import { recurrentGemmaSnippets } from "../families/language-models.js";
import { pyannoteSnippets } from "../snippets/audio.js";
import { pytorchSnippets } from "../snippets/formats.js";
import { paddlenlpSnippets } from "../snippets/nlp.js";
import { peftSnippets } from "../snippets/peft.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import { paddleocrSnippets, perceptionEncoderSnippets } from "../snippets/vision.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries P-R, keyed by the `library_name` their models declare. */
export const LIBRARIES_P_TO_R = {
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
    snippets: paddlepaddleSnippets,
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
    snippets: phantomWanSnippets,
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
  "pruna-ai": {
    prettyLabel: "Pruna AI",
    repoName: "pruna",
    repoUrl: "https://github.com/PrunaAI/pruna",
    docsUrl: "https://docs.pruna.ai/",
    snippets: P.pruna,
    filter: false,
  },
  "py-feat": researchRepo("Py-Feat", "https://github.com/cosanlab/py-feat", {
    docsUrl: "https://py-feat.org/",
    snippets: pyFeatSnippets,
  }),
  PyLate: {
    prettyLabel: "PyLate",
    repoName: "PyLate",
    repoUrl: "https://github.com/lightonai/pylate",
    docsUrl: "https://lightonai.github.io/pylate/",
    snippets: P.pylate,
    filter: false,
  },
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
  quantumpeer: researchRepo("QuantumPeer", "https://github.com/OpenPeer-AI/QuantumPeer", {
    countDownloads: `path:"setup.py"`,
  }),
  "qwen3-tts": {
    prettyLabel: "Qwen3-TTS",
    repoName: "Qwen3-TTS",
    repoUrl: "https://github.com/QwenLM/Qwen3-TTS",
    docsUrl: readme("https://github.com/QwenLM/Qwen3-TTS"),
    snippets: P.qwen3Tts,
    filter: false,
  },
  qwen3_tts: {
    prettyLabel: "Qwen3-TTS",
    repoName: "Qwen3-TTS",
    repoUrl: "https://github.com/QwenLM/Qwen3-TTS",
    docsUrl: readme("https://github.com/QwenLM/Qwen3-TTS"),
    snippets: P.qwen3Tts,
    filter: false,
  },
  recurrentgemma: researchRepo("RecurrentGemma", "https://github.com/google-deepmind/recurrentgemma", {
    snippets: recurrentGemmaSnippets,
    countDownloads: `path:"tokenizer.model"`,
  }),
  refiners: researchRepo("Refiners", "https://github.com/finegrain-ai/refiners", {
    docsUrl: "https://refine.rs/",
    countDownloads: `path:"model.safetensors"`,
    snippets: refinersSnippets,
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
  "robo-orchard-lab": researchRepo("RoboOrchardLab", "https://github.com/HorizonRobotics/RoboOrchardLab", {
    countDownloads: `path_extension:"safetensors"`,
  }),
  rust: researchRepo("Rust", "https://github.com/huggingface/candle", {
    docsUrl: "https://huggingface.github.io/candle/",
  }),
} satisfies Record<string, ModelLibrary>;
