import {
  fastaiSnippets,
  gaudiConfigSnippets,
  ipuConfigSnippets,
} from "../families/frameworks-and-hardware.js";
import {
  fixerSnippets,
  geometryCrafterSnippets,
  halloSnippets,
  hunyuanDitSnippets,
  mochiSnippets,
  voyagerSnippets,
} from "../families/image-and-video.js";
import { grokSnippets } from "../families/language-models.js";
import { fmeSnippets } from "../families/science-and-health.js";
import { f5TtsSnippets, glmTtsSnippets, habibiTtsSnippets } from "../families/speech-and-music.js";
import { espnetSnippets, fairseqSnippets } from "../snippets/audio.js";
import { executorchSnippets, ggufSnippets } from "../snippets/formats.js";
import { edsnlpSnippets, fasttextSnippets, flairSnippets, hezarSnippets } from "../snippets/nlp.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries E-H, keyed by the `library_name` their models declare. */
export const LIBRARIES_E_TO_H = {
  edsnlp: {
    prettyLabel: "EDS-NLP",
    repoName: "edsnlp",
    repoUrl: "https://github.com/aphp/edsnlp",
    docsUrl: "https://aphp.github.io/edsnlp/latest/",
    snippets: edsnlpSnippets,
    filter: false,
    countDownloads: `path_filename:"config" AND path_extension:"cfg"`,
  },
  elm: researchRepo("ELM", "https://github.com/slicex-ai/elm", {
    repoName: "elm",
    countDownloads: `path_filename:"slicex_elm_config" AND path_extension:"json"`,
  }),
  espnet: {
    prettyLabel: "ESPnet",
    repoName: "ESPnet",
    repoUrl: "https://github.com/espnet/espnet",
    docsUrl: "https://espnet.github.io/espnet/",
    snippets: espnetSnippets,
    filter: true,
  },
  eupe: researchRepo("EUPE", "https://github.com/facebookresearch/EUPE", {
    countDownloads: `path_extension:"pt"`,
  }),
  executorch: {
    prettyLabel: "ExecuTorch",
    repoName: "executorch",
    repoUrl: "https://github.com/pytorch/executorch",
    docsUrl: "https://pytorch.org/executorch/stable/index.html",
    snippets: executorchSnippets,
    filter: false,
    countDownloads: `path_extension:"pte"`,
  },
  "f5-tts": researchRepo("F5-TTS", "https://github.com/SWivid/F5-TTS", {
    countDownloads: `path_extension:"safetensors" OR path_extension:"pt"`,
    snippets: f5TtsSnippets,
  }),
  fairseq: {
    prettyLabel: "Fairseq",
    repoName: "fairseq",
    repoUrl: "https://github.com/facebookresearch/fairseq",
    docsUrl: "https://fairseq.readthedocs.io/en/latest/",
    snippets: fairseqSnippets,
    filter: true,
  },
  fastai: {
    prettyLabel: "fastai",
    repoName: "fastai",
    repoUrl: "https://github.com/fastai/fastai",
    docsUrl: "https://huggingface.co/docs/hub/fastai",
    snippets: fastaiSnippets,
    filter: true,
  },
  fastprint: researchRepo("Fast Print", "https://huggingface.co/OpenPeerAI/FastPrint", {
    countDownloads: `path_extension:"cs"`,
  }),
  fasttext: {
    prettyLabel: "fastText",
    repoName: "fastText",
    repoUrl: "https://github.com/facebookresearch/fastText",
    docsUrl: "https://fasttext.cc/docs/en/python-module.html",
    snippets: fasttextSnippets,
    filter: true,
    countDownloads: `path_extension:"bin"`,
  },
  fixer: researchRepo("Fixer", "https://github.com/nv-tlabs/Fixer", {
    snippets: fixerSnippets,
    countDownloads: `path:"pretrained/pretrained_fixer.pkl"`,
  }),
  flair: {
    prettyLabel: "Flair",
    repoName: "Flair",
    repoUrl: "https://github.com/flairNLP/flair",
    docsUrl: "https://flairnlp.github.io/docs/intro",
    snippets: flairSnippets,
    filter: true,
    countDownloads: `path:"pytorch_model.bin"`,
  },
  fme: researchRepo("Full Model Emulation", "https://github.com/ai2cm/ace", {
    snippets: fmeSnippets,
    docsUrl: "https://ai2-climate-emulator.readthedocs.io/en/latest/",
    countDownloads: `path_extension:"tar"`,
  }),
  "gemma.cpp": researchRepo("gemma.cpp", "https://github.com/google/gemma.cpp", {
    countDownloads: `path_extension:"sbs"`,
  }),
  genmo: researchRepo("Genmo", "https://github.com/genmoai/mochi", {
    countDownloads: `path:"vae_stats.json"`,
    snippets: mochiSnippets,
  }),
  "geometry-crafter": researchRepo("GeometryCrafter", "https://github.com/TencentARC/GeometryCrafter", {
    snippets: geometryCrafterSnippets,
    countDownloads: `path:"point_map_vae/diffusion_pytorch_model.safetensors"`,
  }),
  gguf: {
    prettyLabel: "GGUF",
    repoName: "llama.cpp",
    repoUrl: "https://github.com/ggml-org/llama.cpp",
    docsUrl: "https://huggingface.co/docs/hub/gguf",
    snippets: ggufSnippets,
    filter: true,
    countDownloads: `path_extension:"gguf"`,
  },
  gliner: {
    prettyLabel: "GLiNER",
    repoName: "GLiNER",
    repoUrl: "https://github.com/urchade/GLiNER",
    docsUrl: readme("https://github.com/urchade/GLiNER"),
    snippets: P.gliner,
    filter: false,
    countDownloads: `path:"gliner_config.json"`,
  },
  gliner2: {
    prettyLabel: "GLiNER2",
    repoName: "GLiNER2",
    repoUrl: "https://github.com/fastino-ai/GLiNER2",
    docsUrl: readme("https://github.com/fastino-ai/GLiNER2"),
    snippets: P.gliner2,
    filter: false,
  },
  "glm-tts": researchRepo("GLM-TTS", "https://github.com/zai-org/GLM-TTS", {
    snippets: glmTtsSnippets,
    countDownloads: `path:"flow/flow.pt"`,
  }),
  "glyph-byt5": researchRepo("Glyph-ByT5", "https://github.com/AIGText/Glyph-ByT5", {
    countDownloads: `path:"checkpoints/byt5_model.pt"`,
  }),
  "granite-library": researchRepo("Granite Library", "https://github.com/generative-computing/mellea", {
    repoName: "mellea",
    countDownloads: `path_filename:"adapter_config" AND path_extension:"json"`,
  }),
  "granite-tsfm": {
    prettyLabel: "Granite TSFM",
    repoName: "granite-tsfm",
    repoUrl: "https://github.com/ibm-granite/granite-tsfm",
    docsUrl: readme("https://github.com/ibm-granite/granite-tsfm"),
    snippets: P.tinyTimeMixer,
    filter: false,
  },
  graphcore: researchRepo("Graphcore", "https://github.com/huggingface/optimum-graphcore", {
    docsUrl: "https://huggingface.co/docs/optimum/graphcore/index",
    snippets: ipuConfigSnippets,
  }),
  grok: researchRepo("Grok", "https://github.com/xai-org/grok-1", {
    countDownloads: `path:"ckpt/tensor00000_000" OR path:"ckpt-0/tensor00000_000"`,
    snippets: grokSnippets,
  }),
  habana: researchRepo("Habana", "https://github.com/huggingface/optimum-habana", {
    docsUrl: "https://huggingface.co/docs/optimum/habana/index",
    snippets: gaudiConfigSnippets,
  }),
  "habibi-tts": researchRepo("Habibi-TTS", "https://github.com/SWivid/Habibi-TTS", {
    snippets: habibiTtsSnippets,
    countDownloads: `path_extension:"safetensors"`,
  }),
  hallo: researchRepo("Hallo", "https://github.com/fudan-generative-vision/hallo", {
    countDownloads: `path:"hallo/net.pth"`,
    snippets: halloSnippets,
  }),
  hermes: researchRepo("HERMES", "https://github.com/LMD0311/HERMES", {
    countDownloads: `path:"ckpt/hermes_final.pth"`,
  }),
  hezar: {
    prettyLabel: "Hezar",
    repoName: "Hezar",
    repoUrl: "https://github.com/hezarai/hezar",
    docsUrl: "https://hezarai.github.io/hezar",
    snippets: hezarSnippets,
    filter: false,
    countDownloads: `path:"model_config.yaml" OR path:"embedding/embedding_config.yaml"`,
  },
  holomotion: researchRepo("HoloMotion", "https://github.com/HorizonRobotics/HoloMotion", {
    countDownloads: `path_extension:"onnx"`,
  }),
  htrflow: researchRepo("HTRflow", "https://github.com/AI-Riksarkivet/htrflow", {
    docsUrl: "https://ai-riksarkivet.github.io/htrflow",
  }),
  "hunyuan-dit": researchRepo("HunyuanDiT", "https://github.com/Tencent/HunyuanDiT", {
    countDownloads: `path:"pytorch_model_ema.pt" OR path:"pytorch_model_distill.pt"`,
    snippets: hunyuanDitSnippets,
  }),
  "hunyuan3d-2": {
    prettyLabel: "Hunyuan3D-2",
    repoName: "Hunyuan3D-2",
    repoUrl: "https://github.com/Tencent/Hunyuan3D-2",
    docsUrl: readme("https://github.com/Tencent/Hunyuan3D-2"),
    snippets: P.hunyuan3d,
    filter: false,
    countDownloads: `path_filename:"model_index" OR path_filename:"config"`,
  },
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
} satisfies Record<string, ModelLibrary>;
