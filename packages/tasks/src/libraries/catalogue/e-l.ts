import { espnetSnippets, fairseqSnippets, indexTtsSnippets, kokoroSnippets } from "../snippets/audio.js";
import {
  executorchSnippets,
  ggufSnippets,
  jaxSnippets,
  joblibSnippets,
  kerasNlpSnippets,
  llamafileSnippets,
} from "../snippets/formats.js";
import { kerasHubSnippets, kerasSnippets } from "../snippets/keras.js";
import { llamaCppPythonSnippets } from "../snippets/llm.js";
import { fastaiSnippets } from "../snippets/misc.js";
import {
  edsnlpSnippets,
  fasttextSnippets,
  flairSnippets,
  hezarSnippets,
  lightningIrSnippets,
} from "../snippets/nlp.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import { gaudiConfigSnippets, ipuConfigSnippets, lvfaceSnippets } from "../snippets/research.js";
import {
  f5TtsSnippets,
  grokSnippets,
  halloSnippets,
  hunyuanDitSnippets,
  livePortraitSnippets,
} from "../snippets/research-scripts.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries E-L, keyed by the `library_name` their models declare. */
export const LIBRARIES_E_TO_L = {
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
  fasttext: {
    prettyLabel: "fastText",
    repoName: "fastText",
    repoUrl: "https://github.com/facebookresearch/fastText",
    docsUrl: "https://fasttext.cc/docs/en/python-module.html",
    snippets: fasttextSnippets,
    filter: true,
    countDownloads: `path_extension:"bin"`,
  },
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
    docsUrl: "https://ai2-climate-emulator.readthedocs.io/en/latest/",
    countDownloads: `path_extension:"tar"`,
  }),
  "gemma.cpp": researchRepo("gemma.cpp", "https://github.com/google/gemma.cpp", {
    countDownloads: `path_extension:"sbs"`,
  }),
  genmo: researchRepo("Genmo", "https://github.com/genmoai/mochi", {
    countDownloads: `path:"vae_stats.json"`,
  }),
  "geometry-crafter": researchRepo("GeometryCrafter", "https://github.com/TencentARC/GeometryCrafter", {
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
  "glyph-byt5": researchRepo("Glyph-ByT5", "https://github.com/AIGText/Glyph-ByT5", {
    countDownloads: `path:"checkpoints/byt5_model.pt"`,
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
  imstoucan: researchRepo("IMS Toucan", "https://github.com/DigitalPhonetics/IMS-Toucan", {
    repoName: "IMS-Toucan",
    countDownloads: `path:"embedding_gan.pt" OR path:"Vocoder.pt" OR path:"ToucanTTS.pt"`,
  }),
  "index-tts": {
    prettyLabel: "IndexTTS",
    repoName: "IndexTTS",
    repoUrl: "https://github.com/index-tts/index-tts",
    docsUrl: readme("https://github.com/index-tts/index-tts"),
    snippets: indexTtsSnippets,
    filter: false,
  },
  "infinite-you": researchRepo("InfiniteYou", "https://github.com/bytedance/InfiniteYou", {
    countDownloads: `path:"infu_flux_v1.0/sim_stage1/image_proj_model.bin" OR path:"infu_flux_v1.0/aes_stage2/image_proj_model.bin"`,
  }),
  infinitetalk: researchRepo("InfiniteTalk", "https://github.com/MeiGen-AI/InfiniteTalk", {
    countDownloads: `path_extension:"safetensors"`,
  }),
  jax: {
    prettyLabel: "JAX",
    repoName: "jax",
    repoUrl: "https://github.com/jax-ml/jax",
    docsUrl: "https://docs.jax.dev/en/latest/",
    snippets: jaxSnippets,
    filter: true,
    countDownloads: `path_extension:"msgpack"`,
  },
  joblib: {
    prettyLabel: "Joblib",
    repoName: "joblib",
    repoUrl: "https://github.com/joblib/joblib",
    docsUrl: "https://joblib.readthedocs.io/en/stable/",
    snippets: joblibSnippets,
    filter: true,
    countDownloads: `path_extension:"joblib"`,
  },
  k2: researchRepo("K2", "https://github.com/k2-fsa/k2", {
    repoName: "k2",
    docsUrl: "https://k2-fsa.github.io/k2/",
  }),
  keras: {
    prettyLabel: "Keras",
    repoName: "Keras",
    repoUrl: "https://github.com/keras-team/keras",
    docsUrl: "https://huggingface.co/docs/hub/keras",
    snippets: kerasSnippets,
    filter: true,
    countDownloads: `path:"config.json" OR path_extension:"keras"`,
  },
  "keras-hub": {
    prettyLabel: "KerasHub",
    repoName: "KerasHub",
    repoUrl: "https://github.com/keras-team/keras-hub",
    docsUrl: "https://keras.io/keras_hub/",
    snippets: kerasHubSnippets,
    filter: true,
  },
  "keras-nlp": {
    prettyLabel: "KerasNLP",
    repoName: "KerasNLP",
    repoUrl: "https://github.com/keras-team/keras-hub",
    docsUrl: "https://keras.io/keras_hub/",
    snippets: kerasNlpSnippets,
    filter: false,
  },
  kernels: {
    prettyLabel: "Kernels",
    repoName: "kernels",
    repoUrl: "https://github.com/huggingface/kernels",
    docsUrl: readme("https://github.com/huggingface/kernels"),
    snippets: P.kernels,
    filter: false,
  },
  "kimi-audio": {
    prettyLabel: "KimiAudio",
    repoName: "KimiAudio",
    repoUrl: "https://github.com/MoonshotAI/Kimi-Audio",
    docsUrl: readme("https://github.com/MoonshotAI/Kimi-Audio"),
    snippets: P.kimiAudio,
    filter: false,
  },
  kittentts: {
    prettyLabel: "KittenTTS",
    repoName: "KittenTTS",
    repoUrl: "https://github.com/KittenML/KittenTTS",
    docsUrl: readme("https://github.com/KittenML/KittenTTS"),
    snippets: P.kittentts,
    filter: false,
  },
  kokoro: {
    prettyLabel: "Kokoro",
    repoName: "kokoro",
    repoUrl: "https://github.com/hexgrad/kokoro",
    docsUrl: readme("https://github.com/hexgrad/kokoro"),
    snippets: kokoroSnippets,
    filter: false,
    countDownloads: `path_extension:"pth"`,
  },
  kronos: researchRepo("KRONOS", "https://github.com/mahmoodlab/KRONOS", {
    countDownloads: `path_extension:"pt"`,
  }),
  lerobot: researchRepo("LeRobot", "https://github.com/huggingface/lerobot", {
    docsUrl: "https://huggingface.co/docs/lerobot",
  }),
  "lightning-ir": {
    prettyLabel: "Lightning IR",
    repoName: "Lightning IR",
    repoUrl: "https://github.com/webis-de/lightning-ir",
    docsUrl: "https://webis-de.github.io/lightning-ir/",
    snippets: lightningIrSnippets,
    filter: false,
  },
  "litert-lm": researchRepo("LiteRT-LM", "https://github.com/google-ai-edge/LiteRT-LM", {
    countDownloads: `path_extension:"litertlm"`,
  }),
  liveportrait: researchRepo("LivePortrait", "https://github.com/KwaiVGI/LivePortrait", {
    countDownloads: `path:"liveportrait/landmark.onnx"`,
    snippets: livePortraitSnippets,
  }),
  "llama.cpp": {
    prettyLabel: "llama.cpp",
    repoName: "llama.cpp",
    repoUrl: "https://github.com/ggml-org/llama.cpp",
    docsUrl: "https://huggingface.co/docs/hub/gguf-llamacpp",
    snippets: ggufSnippets,
    filter: false,
    countDownloads: `path_extension:"gguf"`,
  },
  "llama-cpp-python": {
    prettyLabel: "llama-cpp-python",
    repoName: "llama-cpp-python",
    repoUrl: "https://github.com/abetlen/llama-cpp-python",
    docsUrl: "https://llama-cpp-python.readthedocs.io/en/latest/",
    snippets: llamaCppPythonSnippets,
    filter: false,
  },
  llamafile: {
    prettyLabel: "llamafile",
    repoName: "llamafile",
    repoUrl: "https://github.com/Mozilla-Ocho/llamafile",
    docsUrl: readme("https://github.com/Mozilla-Ocho/llamafile"),
    snippets: llamafileSnippets,
    filter: false,
    countDownloads: `path_extension:"llamafile"`,
  },
  lvface: researchRepo("LVFace", "https://github.com/bytedance/LVFace", {
    countDownloads: `path_extension:"pt" OR path_extension:"onnx"`,
    snippets: lvfaceSnippets,
  }),
} satisfies Record<string, ModelLibrary>;
