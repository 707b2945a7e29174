import {
  sam3dBodySnippets,
  sam3dObjectsSnippets,
  sanaSnippets,
  sapiensSnippets,
  seedvrSnippets,
  selfForcingSnippets,
} from "../families/image-and-video.js";
import { scviToolsSnippets, skalaSnippets } from "../families/science-and-health.js";
import { seamlessSnippets, supertonicSnippets } from "../families/speech-and-music.js";
import { sapRptSnippets } from "../families/tabular-and-forecasting.js";
import { stableAudioToolsSnippets } from "../snippets/audio.js";
import { safetensorsSnippets } from "../snippets/formats.js";
import { spacySnippets, stanzaSnippets } from "../snippets/nlp.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import { sampleFactorySnippets, stableBaselines3Snippets } from "../snippets/rl.js";
import { sentenceTransformersSnippets } from "../snippets/sentence-transformers.js";
import { sklearnSnippets } from "../snippets/sklearn.js";
import { speechbrainSnippets } from "../snippets/speechbrain.js";
import { sam2Snippets } from "../snippets/vision.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries S, keyed by the `library_name` their models declare. */
export const LIBRARIES_S = {
  saelens: researchRepo("SAELens", "https://github.com/jbloomAus/SAELens", {
    docsUrl: "https://jbloomaus.github.io/SAELens/",
  }),
  safetensors: {
    prettyLabel: "Safetensors",
    repoName: "safetensors",
    repoUrl: "https://github.com/huggingface/safetensors",
    docsUrl: "https://huggingface.co/docs/safetensors",
    snippets: safetensorsSnippets,
    filter: true,
    countDownloads: `path_extension:"safetensors"`,
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
  "sam-3d-body": researchRepo("SAM 3D Body", "https://github.com/facebookresearch/sam-3d-body", {
    snippets: sam3dBodySnippets,
  }),
  "sam-3d-objects": researchRepo("SAM 3D Objects", "https://github.com/facebookresearch/sam-3d-objects", {
    snippets: sam3dObjectsSnippets,
  }),
  same: researchRepo("SAME", "https://github.com/GengzeZhou/SAME", {
    countDownloads: `path:"ckpt/SAME.pt" OR path:"pretrain/Attnq_pretrained_ckpt.pt"`,
  }),
  "sample-factory": {
    prettyLabel: "sample-factory",
    repoName: "sample-factory",
    repoUrl: "https://github.com/alex-petrenko/sample-factory",
    docsUrl: "https://huggingface.co/docs/hub/sample-factory",
    snippets: sampleFactorySnippets,
    filter: true,
    countDownloads: `path:"cfg.json"`,
  },
  sana: researchRepo("Sana", "https://github.com/NVlabs/Sana", {
    docsUrl: "https://nvlabs.github.io/Sana/",
    countDownloads: `path_extension:"pth"`,
    snippets: sanaSnippets,
  }),
  "sap-rpt-1-oss": {
    prettyLabel: "SAP RPT-1 OSS",
    repoName: "sap-rpt-1-oss",
    repoUrl: "https://github.com/SAP-samples/sap-rpt-1-oss",
    docsUrl: readme("https://github.com/SAP-samples/sap-rpt-1-oss"),
    snippets: sapRptSnippets,
    filter: false,
  },
  sapiens: researchRepo("sapiens", "https://github.com/facebookresearch/sapiens", {
    snippets: sapiensSnippets,
    countDownloads: `path_extension:"pt2" OR path_extension:"pth" OR path_extension:"onnx"`,
  }),
  sapiens2: researchRepo("sapiens2", "https://github.com/facebookresearch/sapiens2", {
    countDownloads: `path_extension:"safetensors"`,
  }),
  seamless_communication: researchRepo(
    "Seamless Communication",
    "https://github.com/facebookresearch/seamless_communication",
    { snippets: seamlessSnippets },
  ),
  "scvi-tools": {
    prettyLabel: "scvi-tools",
    repoName: "scvi-tools",
    repoUrl: "https://github.com/scverse/scvi-tools",
    docsUrl: "https://docs.scvi-tools.org/en/stable/",
    snippets: scviToolsSnippets,
    filter: false,
  },
  "seed-story": researchRepo("SEED-Story", "https://github.com/TencentARC/SEED-Story", {
    countDownloads: `path:"cvlm_llama2_tokenizer/tokenizer.model"`,
  }),
  seedvr: researchRepo("SeedVR", "https://github.com/ByteDance-Seed/SeedVR", {
    snippets: seedvrSnippets,
    countDownloads: `path_extension:"pth"`,
  }),
  "segmentation-models-pytorch": {
    prettyLabel: "Segmentation Models",
    repoName: "segmentation_models.pytorch",
    repoUrl: "https://github.com/qubvel-org/segmentation_models.pytorch",
    docsUrl: "https://smp.readthedocs.io/en/latest/",
    snippets: P.segmentationModelsPytorch,
    filter: false,
  },
  "self-forcing": {
    prettyLabel: "Self-Forcing",
    repoName: "Self-Forcing",
    repoUrl: "https://github.com/guandeh17/Self-Forcing",
    docsUrl: readme("https://github.com/guandeh17/Self-Forcing"),
    snippets: selfForcingSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  "sentence-transformers": {
    prettyLabel: "sentence-transformers",
    repoName: "sentence-transformers",
    repoUrl: "https://github.com/UKPLab/sentence-transformers",
    docsUrl: "https://sbert.net/",
    snippets: sentenceTransformersSnippets,
    filter: true,
  },
  setfit: {
    prettyLabel: "setfit",
    repoName: "setfit",
    repoUrl: "https://github.com/huggingface/setfit",
    docsUrl: "https://huggingface.co/docs/setfit",
    snippets: P.setfit,
    filter: true,
  },
  skala: researchRepo("Skala", "https://github.com/microsoft/skala", {
    snippets: skalaSnippets,
    countDownloads: `path_extension:"fun"`,
  }),
  sklearn: {
    prettyLabel: "Scikit-learn",
    repoName: "Scikit-learn",
    repoUrl: "https://github.com/scikit-learn/scikit-learn",
    docsUrl: "https://skops.readthedocs.io/en/stable/",
    snippets: sklearnSnippets,
    filter: true,
    countDownloads: `path:"sklearn_model.joblib"`,
  },
  soloaudio: researchRepo("SoloAudio", "https://github.com/WangHelin1997/SoloAudio", {
    countDownloads: `path:"soloaudio_v2.pt"`,
  }),
  songbloom: researchRepo("SongBloom", "https://github.com/Cypress-Yang/SongBloom", {
    countDownloads: `path_extension:"pt"`,
  }),
  spacy: {
    prettyLabel: "spaCy",
    repoName: "spaCy",
    repoUrl: "https://github.com/explosion/spaCy",
    docsUrl: "https://huggingface.co/docs/hub/spacy",
    snippets: spacySnippets,
    filter: true,
    countDownloads: `path_extension:"whl"`,
  },
  "span-marker": {
    prettyLabel: "SpanMarker",
    repoName: "SpanMarkerNER",
    repoUrl: "https://github.com/tomaarsen/SpanMarkerNER",
    docsUrl: "https://huggingface.co/docs/hub/span_marker",
    snippets: P.spanMarker,
    filter: true,
  },
  speechbrain: {
    prettyLabel: "speechbrain",
    repoName: "speechbrain",
    repoUrl: "https://github.com/speechbrain/speechbrain",
    docsUrl: "https://speechbrain.readthedocs.io/en/latest/",
    snippets: speechbrainSnippets,
    filter: true,
    countDownloads: `path:"hyperparams.yaml"`,
  },
  "ssr-speech": researchRepo("SSR-Speech", "https://github.com/WangHelin1997/SSR-Speech", {
    countDownloads: `path_extension:"pth"`,
  }),
  "stable-audio-tools": {
    prettyLabel: "Stable Audio Tools",
    repoName: "stable-audio-tools",
    repoUrl: "https://github.com/Stability-AI/stable-audio-tools",
    docsUrl: readme("https://github.com/Stability-AI/stable-audio-tools"),
    snippets: stableAudioToolsSnippets,
    filter: false,
    countDownloads: `path:"model.safetensors"`,
  },
  "stable-baselines3": {
    prettyLabel: "stable-baselines3",
    repoName: "stable-baselines3",
    repoUrl: "https://github.com/huggingface/huggingface_sb3",
    docsUrl: "https://huggingface.co/docs/hub/stable-baselines3",
    snippets: stableBaselines3Snippets,
    filter: true,
    countDownloads: `path_extension:"zip"`,
  },
  stanza: {
    prettyLabel: "Stanza",
    repoName: "stanza",
    repoUrl: "https://github.com/stanfordnlp/stanza",
    docsUrl: "https://stanfordnlp.github.io/stanza/",
    snippets: stanzaSnippets,
    filter: true,
    countDownloads: `path:"models/default.zip"`,
  },
  supertonic: researchRepo("Supertonic", "https://github.com/supertone-inc/supertonic", {
    snippets: supertonicSnippets,
  }),
  swarmformer: {
    prettyLabel: "SwarmFormer",
    repoName: "SwarmFormer",
    repoUrl: "https://github.com/takara-ai/SwarmFormer",
    docsUrl: readme("https://github.com/takara-ai/SwarmFormer"),
    snippets: P.swarmformer,
    filter: false,
  },
  "synthefy-migas": researchRepo("Migas", "https://github.com/Synthefy/synthefy-migas", {
    countDownloads: `path:"model.pt"`,
  }),
} satisfies Record<string, ModelLibrary>;
