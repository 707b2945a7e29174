import {
  comfyCheckpointSnippets,
  depthAnythingV2Snippets,
  describeAnythingSnippets,
} from "../families/image-and-video.js";
import { savedModelKerasSnippets } from "../families/science-and-health.js";
import { diffusersSnippets } from "../snippets/diffusers.js";
import { dduf } from "../snippets/formats.js";
import { PRETRAINED_SNIPPETS as P } from "../snippets/pretrained-loaders.js";
import {
  deepforestSnippets,
  depthProSnippets,
  diffusionkitSnippets,
  doctrSnippets,
} from "../snippets/vision.js";
import type { ModelLibrary } from "../types.js";
import { readme, researchRepo } from "./define.js";

/** Model libraries starting with D, keyed by the `library_name` their models declare. */
export const LIBRARIES_D = {
  dduf: {
    prettyLabel: "DDUF",
    repoName: "DDUF",
    repoUrl: "https://github.com/huggingface/diffusers",
    docsUrl: "https://huggingface.co/docs/hub/dduf",
    snippets: dduf,
    filter: false,
    countDownloads: `path_extension:"dduf"`,
  },
  deepforest: {
    prettyLabel: "DeepForest",
    repoName: "deepforest",
    repoUrl: "https://github.com/weecology/DeepForest",
    docsUrl: "https://deepforest.readthedocs.io/en/latest/",
    snippets: deepforestSnippets,
    filter: false,
  },
  "depth-anything-v2": researchRepo("DepthAnythingV2", "https://github.com/DepthAnything/Depth-Anything-V2", {
    repoName: "Depth Anything V2",
    countDownloads: `path_extension:"pth"`,
    snippets: depthAnythingV2Snippets,
  }),
  "depth-pro": {
    prettyLabel: "Depth Pro",
    repoName: "Depth Pro",
    repoUrl: "https://github.com/apple/ml-depth-pro",
    docsUrl: readme("https://github.com/apple/ml-depth-pro"),
    snippets: depthProSnippets,
    filter: false,
    countDownloads: `path_extension:"pt"`,
  },
  "derm-foundation": {
    prettyLabel: "Derm Foundation",
    repoName: "derm-foundation",
    repoUrl: "https://github.com/Google-Health/derm-foundation",
    docsUrl: "https://developers.google.com/health-ai-developer-foundations/derm-foundation",
    snippets: savedModelKerasSnippets,
    filter: false,
    countDownloads: `path:"scin_dataset_precomputed_embeddings.npz" OR path:"saved_model.pb"`,
  },
  "describe-anything": researchRepo("Describe Anything", "https://github.com/NVlabs/describe-anything", {
    snippets: describeAnythingSnippets,
  }),
  dia: {
    prettyLabel: "Dia",
    repoName: "Dia",
    repoUrl: "https://github.com/nari-labs/dia",
    docsUrl: readme("https://github.com/nari-labs/dia"),
    snippets: P.dia,
    filter: false,
  },
  "dia-tts": {
    prettyLabel: "Dia",
    repoName: "Dia",
    repoUrl: "https://github.com/nari-labs/dia",
    docsUrl: readme("https://github.com/nari-labs/dia"),
    snippets: P.dia,
    filter: false,
  },
  dia2: {
    prettyLabel: "Dia2",
    repoName: "Dia2",
    repoUrl: "https://github.com/nari-labs/dia2",
    docsUrl: readme("https://github.com/nari-labs/dia2"),
    snippets: P.dia2,
    filter: false,
  },
  "diff-interpretation-tuning": researchRepo(
    "Diff Interpretation Tuning",
    "https://github.com/Aviously/diff-interpretation-tuning",
    {
      countDownloads: `path_extension:"pt"`,
    },
  ),
  diffree: researchRepo("Diffree", "https://github.com/OpenGVLab/Diffree", {
    countDownloads: `path:"diffree-step=000010999.ckpt"`,
  }),
  diffusers: {
    prettyLabel: "Diffusers",
    repoName: "🤗/diffusers",
    repoUrl: "https://github.com/huggingface/diffusers",
    docsUrl: "https://huggingface.co/docs/diffusers",
    snippets: diffusersSnippets,
    filter: true,
    // Downloads of diffusers models are counted by the hub's own, more complex rule.
  },
  "diffusion-single-file": researchRepo(
    "Diffusion Single File",
    "https://github.com/comfyanonymous/ComfyUI",
    {
      repoName: "diffusion-single-file",
      docsUrl: "https://docs.comfy.org/",
      countDownloads: `path_extension:"safetensors"`,
      snippets: comfyCheckpointSnippets,
    },
  ),
  diffusionkit: {
    prettyLabel: "DiffusionKit",
    repoName: "DiffusionKit",
    repoUrl: "https://github.com/argmaxinc/DiffusionKit",
    docsUrl: readme("https://github.com/argmaxinc/DiffusionKit"),
    snippets: diffusionkitSnippets,
    filter: false,
  },
  "docking-at-home": researchRepo("Docking@Home", "https://huggingface.co/OpenPeerAI/DockingAtHOME", {
    countDownloads: `path:"setup.py"`,
  }),
  doctr: {
    prettyLabel: "docTR",
    repoName: "doctr",
    repoUrl: "https://github.com/mindee/doctr",
    docsUrl: "https://mindee.github.io/doctr/",
    snippets: doctrSnippets,
    filter: false,
  },
} satisfies Record<string, ModelLibrary>;
