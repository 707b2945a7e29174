import {
  birderSnippets,
  champSnippets,
  collectorVisionSnippets,
  cotrackerSnippets,
} from "../families/image-and-video.js";
import { cartesiaMlxSnippets } from "../families/language-models.js";
import {
  anemoiSnippets,
  boltzgenSnippets,
  colipriSnippets,
  cxrFoundationSnippets,
} from "../families/science-and-health.js";
import {
  acestepSnippets,
  chatTtsSnippets,
  coquiSnippets,
  cosyvoiceSnippets,
} from "../families/speech-and-music.js";
import { contexttabSnippets } from "../families/tabular-and-forecasting.js";
import { clipscopeSnippets, cometSnippets } from "../families/text-and-embeddings.js";
import { adaptersSnippets } from "../snippets/adapters.js";
import { audiocraftSnippets, audiosealSnippets, chatterboxSnippets } from "../snippets/audio.js";
import { coremlSnippets, ctranslate2Snippets } from "../snippets/formats.js";
import { ctransformersSnippets } from "../snippets/llm.js";
import { allennlpSnippets, bm25sSnippets } from "../snippets/nlp.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import { cleanrlSnippets } from "../snippets/rl.js";
import { birefnetSnippets } from "../snippets/vision.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries A-C, keyed by the `library_name` their models declare. */
export const LIBRARIES_A_TO_C = {
  acestep: researchRepo("ACE-Step", "https://github.com/ace-step/ACE-Step", {
    countDownloads: `path:"ace_step_transformer/config.json"`,
    snippets: acestepSnippets,
  }),
  "adapter-transformers": {
    prettyLabel: "Adapters",
    repoName: "adapters",
    repoUrl: "https://github.com/adapter-hub/adapters",
    docsUrl: "https://docs.adapterhub.ml/",
    snippets: adaptersSnippets,
    filter: true,
    countDownloads: `path:"adapter_config.json"`,
  },
  allennlp: {
    prettyLabel: "AllenNLP",
    repoName: "AllenNLP",
    repoUrl: "https://github.com/allenai/allennlp",
    docsUrl: "https://huggingface.co/docs/hub/allennlp",
    snippets: allennlpSnippets,
    filter: true,
  },
  anemoi: {
    prettyLabel: "Anemoi",
    repoName: "anemoi-inference",
    repoUrl: "https://github.com/ecmwf/anemoi-inference",
    docsUrl: "https://anemoi.readthedocs.io/en/latest/",
    snippets: anemoiSnippets,
    filter: false,
    countDownloads: `path_extension:"ckpt"`,
  },
  araclip: {
    prettyLabel: "AraClip",
    repoName: "AraClip",
    repoUrl: "https://github.com/Arabic-Clip/Araclip",
    docsUrl: readme("https://github.com/Arabic-Clip/Araclip"),
    snippets: P.araclip,
    filter: false,
  },
  asteroid: {
    prettyLabel: "Asteroid",
    repoName: "Asteroid",
    repoUrl: "https://github.com/asteroid-team/asteroid",
    docsUrl: "https://asteroid-team.github.io/asteroid/",
    snippets: P.asteroid,
    filter: true,
    countDownloads: `path:"pytorch_model.bin"`,
  },
  audiocraft: {
    prettyLabel: "Audiocraft",
    repoName: "audiocraft",
    repoUrl: "https://github.com/facebookresearch/audiocraft",
    docsUrl: "https://facebookresearch.github.io/audiocraft/api_docs/audiocraft/index.html",
    snippets: audiocraftSnippets,
    filter: false,
    countDownloads: `path:"state_dict.bin"`,
  },
  audioseal: {
    prettyLabel: "AudioSeal",
    repoName: "audioseal",
    repoUrl: "https://github.com/facebookresearch/audioseal",
    docsUrl: readme("https://github.com/facebookresearch/audioseal"),
    snippets: audiosealSnippets,
    filter: false,
    countDownloads: `path_extension:"pth"`,
  },
  "aviation-ner": {
    prettyLabel: "Aviation NER",
    repoName: "aviation_ner_sdr",
    repoUrl: "https://github.com/Boeing/aviation_ner_sdr",
    docsUrl: readme("https://github.com/Boeing/aviation_ner_sdr"),
    snippets: P.gliner,
    filter: false,
    countDownloads: `path:"gliner_config.json"`,
  },
  "bagel-mot": researchRepo("Bagel", "https://github.com/ByteDance-Seed/Bagel", {
    countDownloads: `path:"llm_config.json"`,
  }),
  bboxmaskpose: researchRepo("BBoxMaskPose", "https://github.com/MiraPurkrabek/BBoxMaskPose", {
    countDownloads: `path_extension:"pth"`,
  }),
  ben2: {
    prettyLabel: "BEN2",
    repoName: "BEN2",
    repoUrl: "https://github.com/PramaLLC/BEN2",
    docsUrl: readme("https://github.com/PramaLLC/BEN2"),
    snippets: P.ben2,
    filter: false,
  },
  bertopic: {
    prettyLabel: "BERTopic",
    repoName: "BERTopic",
    repoUrl: "https://github.com/MaartenGr/BERTopic",
    docsUrl: "https://maartengr.github.io/BERTopic/",
    snippets: P.bertopic,
    filter: true,
  },
  big_vision: researchRepo("Big Vision", "https://github.com/google-research/big_vision", {
    repoName: "big_vision",
    countDownloads: `path_extension:"npz"`,
  }),
  bionemo: researchRepo("BioNeMo", "https://github.com/NVIDIA/bionemo-framework", {
    docsUrl: "https://docs.nvidia.com/bionemo-framework/latest/",
    countDownloads: `path_extension:"ckpt" OR path:"config.json"`,
  }),
  birder: researchRepo("Birder", "https://gitlab.com/birder/birder", {
    docsUrl: "https://birder.gitlab.io/birder/",
    countDownloads: `path_extension:"pt"`,
    snippets: birderSnippets,
  }),
  birefnet: {
    prettyLabel: "BiRefNet",
    repoName: "BiRefNet",
    repoUrl: "https://github.com/ZhengPeng7/BiRefNet",
    docsUrl: readme("https://github.com/ZhengPeng7/BiRefNet"),
    snippets: birefnetSnippets,
    filter: false,
  },
  bm25s: {
    prettyLabel: "BM25S",
    repoName: "bm25s",
    repoUrl: "https://github.com/xhluca/bm25s",
    docsUrl: "https://bm25s.github.io/",
    snippets: bm25sSnippets,
    filter: false,
    countDownloads: `path:"params.index.json"`,
  },
  boltzgen: researchRepo("BoltzGen", "https://github.com/HannesStark/boltzgen", {
    snippets: boltzgenSnippets,
    countDownloads: `path:"boltzgen1_diverse.ckpt"`,
  }),
  cancertathomev2: researchRepo("Cancer@HomeV2", "https://huggingface.co/OpenPeerAI/CancerAtHomeV2", {
    countDownloads: `path:"run.py"`,
  }),
  cartesia_mlx: {
    prettyLabel: "Cartesia MLX",
    repoName: "Cartesia MLX",
    repoUrl: "https://github.com/cartesia-ai/edge",
    docsUrl: readme("https://github.com/cartesia-ai/edge"),
    snippets: cartesiaMlxSnippets,
    filter: false,
  },
  cartesia_pytorch: {
    prettyLabel: "Cartesia Pytorch",
    repoName: "Cartesia Pytorch",
    repoUrl: "https://github.com/cartesia-ai/cartesia_pytorch",
    docsUrl: readme("https://github.com/cartesia-ai/cartesia_pytorch"),
    snippets: P.cartesiaPytorch,
    filter: false,
  },
  champ: researchRepo("Champ", "https://github.com/fudan-generative-vision/champ", {
    snippets: champSnippets,
    countDownloads: `path:"champ/motion_module.pth"`,
  }),
  chaossim: researchRepo("ChaosSIM", "https://huggingface.co/OpenPeerAI/ChaosSIM", {
    countDownloads: `path:"ChaosSim.nb"`,
  }),
  chat_tts: researchRepo("ChatTTS", "https://github.com/2noise/ChatTTS", {
    docsUrl: "https://2noise.com/",
    countDownloads: `path:"asset/GPT.pt"`,
    snippets: chatTtsSnippets,
  }),
  chatterbox: {
    prettyLabel: "Chatterbox",
    repoName: "Chatterbox",
    repoUrl: "https://github.com/resemble-ai/chatterbox",
    docsUrl: readme("https://github.com/resemble-ai/chatterbox"),
    snippets: chatterboxSnippets,
    filter: false,
    countDownloads: `path:"tokenizer.json"`,
  },
  "chronos-forecasting": {
    prettyLabel: "Chronos",
    repoName: "chronos-forecasting",
    repoUrl: "https://github.com/amazon-science/chronos-forecasting",
    docsUrl: readme("https://github.com/amazon-science/chronos-forecasting"),
    snippets: P.chronos,
    filter: false,
  },
  clara: researchRepo("Clara", "https://github.com/NVIDIA/clara", {
    countDownloads: `path_extension:"ckpt" OR path:"config.json"`,
  }),
  clipscope: researchRepo("clipscope", "https://github.com/Lewington-pitsos/clipscope", {
    snippets: clipscopeSnippets,
    countDownloads: `path_extension:"pt"`,
  }),
  cleanrl: {
    prettyLabel: "CleanRL",
    repoName: "CleanRL",
    repoUrl: "https://github.com/vwxyzjn/cleanrl",
    docsUrl: "https://docs.cleanrl.dev/",
    snippets: cleanrlSnippets,
    filter: false,
    countDownloads: `path_extension:"cleanrl_model"`,
  },
  "cloud-agents": researchRepo("Cloud Agents", "https://huggingface.co/OpenPeerAI/Cloud-Agents", {
    countDownloads: `path:"setup.py"`,
  }),
  colipri: researchRepo("COLIPRI", "https://huggingface.co/microsoft/colipri", {
    snippets: colipriSnippets,
    countDownloads: `path_extension:"safetensors"`,
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
  colpali: {
    prettyLabel: "ColPali",
    repoName: "ColPali",
    repoUrl: "https://github.com/illuin-tech/colpali",
    docsUrl: readme("https://github.com/illuin-tech/colpali"),
    snippets: P.colpali,
    filter: false,
    countDownloads: `path:"adapter_config.json"`,
  },
  comet: {
    prettyLabel: "COMET",
    repoName: "COMET",
    repoUrl: "https://github.com/Unbabel/COMET",
    docsUrl: "https://unbabel.github.io/COMET/html/index.html",
    snippets: cometSnippets,
    filter: false,
    countDownloads: `path:"hparams.yaml"`,
  },
  contexttab: researchRepo("ConTextTab", "https://github.com/SAP-samples/contexttab", {
    countDownloads: `path_extension:"pt"`,
    snippets: contexttabSnippets,
  }),
  coqui: researchRepo("Coqui TTS", "https://github.com/coqui-ai/TTS", {
    docsUrl: "https://docs.coqui.ai/en/latest/",
    countDownloads: `path:"model.pth"`,
    snippets: coquiSnippets,
  }),
  coreml: {
    prettyLabel: "Core ML",
    repoName: "coremltools",
    repoUrl: "https://github.com/apple/coremltools",
    docsUrl: "https://apple.github.io/coremltools/docs-guides/",
    snippets: coremlSnippets,
    filter: true,
    countDownloads: `path_extension:"mlmodel" OR path_extension:"mlpackage"`,
  },
  cosmos: researchRepo("Cosmos", "https://github.com/nvidia-cosmos", {
    docsUrl: "https://docs.nvidia.com/cosmos/latest/",
    countDownloads: `path:"config.json" OR path_extension:"pt"`,
  }),
  cosyvoice: researchRepo("CosyVoice", "https://github.com/FunAudioLLM/CosyVoice", {
    countDownloads: `path_extension:"onnx" OR path_extension:"pt"`,
    snippets: cosyvoiceSnippets,
  }),
  cotracker: researchRepo("CoTracker", "https://github.com/facebookresearch/co-tracker", {
    docsUrl: "https://co-tracker.github.io/",
    countDownloads: `path_extension:"pth"`,
    snippets: cotrackerSnippets,
  }),
  ctranslate2: {
    prettyLabel: "CTranslate2",
    repoName: "CTranslate2",
    repoUrl: "https://github.com/OpenNMT/CTranslate2",
    docsUrl: "https://opennmt.net/CTranslate2/",
    snippets: ctranslate2Snippets,
    filter: false,
    countDownloads: `path:"model.bin"`,
  },
  ctransformers: {
    prettyLabel: "CTransformers",
    repoName: "ctransformers",
    repoUrl: "https://github.com/marella/ctransformers",
    docsUrl: "https://huggingface.co/docs/hub/ctransformers",
    snippets: ctransformersSnippets,
    filter: false,
  },
  "cxr-foundation": researchRepo("CXR Foundation", "https://github.com/Google-Health/cxr-foundation", {
    repoName: "cxr-foundation",
    docsUrl: "https://developers.google.com/health-ai-developer-foundations/cxr-foundation",
    countDownloads: `path:"precomputed_embeddings/embeddings.npz" OR path:"pax-elixr-b-text/saved_model.pb"`,
    snippets: cxrFoundationSnippets,
  }),
} satisfies Record<string, ModelLibrary>;
