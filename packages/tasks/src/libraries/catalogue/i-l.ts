import {
  infiniteTalkSnippets,
  infiniteYouSnippets,
  lagerNvsSnippets,
  livePortraitSnippets,
  lvfaceSnippets,
} from "../families/image-and-video.js";
import { litertLmSnippets } from "../families/language-models.js";
import { lerobotSnippets } from "../families/robotics.js";
import { intellifoldSnippets, kronosSnippets } from "../families/science-and-health.js";
import { imsToucanSnippets } from "../families/speech-and-music.js";
import { indexTtsSnippets, kokoroSnippets } from "../snippets/audio.js";
import {
  ggufSnippets,
  jaxSnippets,
  joblibSnippets,
  kerasNlpSnippets,
  llamafileSnippets,
  tfliteSnippets,
} from "../snippets/formats.js";
import { kerasHubSnippets, kerasSnippets } from "../snippets/keras.js";
import { llamaCppPythonSnippets } from "../snippets/llm.js";
import { lightningIrSnippets } from "../snippets/nlp.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries I-L, keyed by the `library_name` their models declare. */
export const LIBRARIES_I_TO_L = {
  "image-matching-models": researchRepo(
    "Image Matching Models",
    "https://github.com/alexstoken/image-matching-models",
    {
      countDownloads: `path_extension:"safetensors"`,
    },
  ),
  imstoucan: researchRepo("IMS Toucan", "https://github.com/DigitalPhonetics/IMS-Toucan", {
    snippets: imsToucanSnippets,
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
    snippets: infiniteYouSnippets,
    countDownloads: `path:"infu_flux_v1.0/sim_stage1/image_proj_model.bin" OR path:"infu_flux_v1.0/aes_stage2/image_proj_model.bin"`,
  }),
  infinitetalk: researchRepo("InfiniteTalk", "https://github.com/MeiGen-AI/InfiniteTalk", {
    snippets: infiniteTalkSnippets,
    countDownloads: `path_extension:"safetensors"`,
  }),
  intellifold: researchRepo("IntelliFold", "https://github.com/IntelliGen-AI/IntelliFold", {
    snippets: intellifoldSnippets,
    countDownloads: `path_extension:"pt"`,
  }),
  "ising-decoding": researchRepo("Ising Decoding", "https://github.com/NVIDIA/Ising-Decoding", {
    repoName: "Ising-Decoding",
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
    snippets: kronosSnippets,
    countDownloads: `path_extension:"pt"`,
  }),
  lagernvs: researchRepo("LagerNVS", "https://github.com/facebookresearch/lagernvs", {
    snippets: lagerNvsSnippets,
    countDownloads: `path_extension:"pt"`,
  }),
  lerobot: researchRepo("LeRobot", "https://github.com/huggingface/lerobot", {
    docsUrl: "https://huggingface.co/docs/lerobot",
    snippets: lerobotSnippets,
  }),
  lightglue: researchRepo("LightGlue", "https://github.com/cvg/LightGlue", {
    countDownloads: `path_extension:"pth" OR path:"config.json"`,
  }),
  "lightning-ir": {
    prettyLabel: "Lightning IR",
    repoName: "Lightning IR",
    repoUrl: "https://github.com/webis-de/lightning-ir",
    docsUrl: "https://webis-de.github.io/lightning-ir/",
    snippets: lightningIrSnippets,
    filter: false,
  },
  litert: {
    prettyLabel: "LiteRT",
    repoName: "LiteRT",
    repoUrl: "https://github.com/google-ai-edge/LiteRT",
    docsUrl: "https://ai.google.dev/edge/litert",
    snippets: tfliteSnippets,
    filter: false,
    countDownloads: `path_extension:"tflite"`,
  },
  "litert-lm": researchRepo("LiteRT-LM", "https://github.com/google-ai-edge/LiteRT-LM", {
    snippets: litertLmSnippets,
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
  "lyra-2.0": researchRepo("Lyra-2.0", "https://github.com/nv-tlabs/lyra", {
    countDownloads: `path:"checkpoints/image_encoder/model.pth"`,
  }),
} satisfies Record<string, ModelLibrary>;
