import type { ModelData } from "../../model-data.js";
import { researchRepo } from "../define.js";
import { pipInstall, repoFile } from "../kit.js";
import { joinCode, py, sh } from "../quote.js";
import { type LibrarySnippet, type ModelLibrary, snippet } from "../types.js";

/**
 * Runtimes with their own weight format or command line,: the model is
 * fetched from the hub and run by the runtime on this machine.
 */

const QUESTION = "What is the capital of France?";

/** cortiq runs `.cmf` files; a repository may hold one per quantization, so the first one is named. */
function cortiqSnippets(model: ModelData): LibrarySnippet[] {
  const file = repoFile(model, [".cmf"], "model.cmf");
  return [
    snippet(
      sh`cargo install cortiq-cli
hf download ${model.id} --include '*.cmf' --local-dir .`,
      "Install and download",
    ),
    snippet(sh`cortiq run ${file} --prompt ${QUESTION}`, "Ask a question"),
    snippet(sh`cortiq serve ${file} --port 8080`, "Serve an OpenAI-compatible API"),
  ];
}

/** memra pulls GGUF repositories by `hf:` reference; it targets recent NVIDIA cards on Linux x86_64. */
function memraSnippets(model: ModelData): LibrarySnippet[] {
  const ref = `hf:${model.id}`;
  return [
    snippet(
      sh`curl -fsSL https://raw.githubusercontent.com/avifenesh/memra/main/tools/install.sh | sh`,
      "Install",
    ),
    snippet(sh`MEMRA_CHAT=1 run-gen ${ref} --prompt ${QUESTION}`, "Generate one chat answer"),
    snippet(sh`MEMRA_MODELS=${`model=${ref}`} memra-server`, "Serve an OpenAI-compatible API on port 8080"),
  ];
}

/**
 * mflux runs FLUX-family image models with MLX on Apple silicon; fine-tuned weights name the base
 * architecture they were trained from.
 */
function mfluxSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["mflux"]),
    snippet(
      joinCode("sh", [
        sh`# --base-model is the architecture these weights come from (schnell, dev, ...).`,
        sh`mflux-generate --model ${model.id} --base-model dev --prompt ${"A cozy cabin in a snowy forest"} --steps 20 --seed 42`,
      ]),
      "Generate an image",
    ),
  ];
}

/** The rwkv package loads a `.pth` checkpoint by its path without the extension, with a device strategy. */
function rwkvSnippets(model: ModelData): LibrarySnippet[] {
  const checkpoint = repoFile(model, [".pth"], "model.pth");
  return [
    pipInstall(["rwkv"]),
    snippet(
      py`from huggingface_hub import hf_hub_download
from rwkv.model import RWKV

path = hf_hub_download(repo_id=${model.id}, filename=${checkpoint})
model = RWKV(model=path.removesuffix(".pth"), strategy="cuda fp16")  # or "cpu fp32"`,
      "Load the model",
    ),
  ];
}

export const LOCAL_RUNTIME_LIBRARIES = {
  cortiq: {
    prettyLabel: "cortiq",
    repoName: "cortiq",
    repoUrl: "https://github.com/infosave2007/cmf",
    docsUrl: "https://github.com/infosave2007/cmf/blob/master/docs/CMF_V2_SPEC.md",
    snippets: cortiqSnippets,
    filter: false,
    countDownloads: `path_extension:"cmf"`,
  },
  encoderfile: researchRepo("encoderfile", "https://github.com/mozilla-ai/encoderfile", {
    countDownloads: `path_extension:"encoderfile"`,
  }),
  memra: {
    prettyLabel: "memra",
    repoName: "memra",
    repoUrl: "https://github.com/avifenesh/memra",
    docsUrl: "https://github.com/avifenesh/memra#readme",
    snippets: memraSnippets,
    filter: false,
  },
  mflux: {
    prettyLabel: "mflux",
    repoName: "mflux",
    repoUrl: "https://github.com/filipstrand/mflux",
    docsUrl: "https://github.com/filipstrand/mflux#readme",
    snippets: mfluxSnippets,
    filter: false,
    countDownloads: `path_extension:"safetensors"`,
  },
  mobilint: researchRepo("Mobilint", "https://github.com/mobilint/mblt-model-zoo", {
    repoName: "mblt-model-zoo",
    docsUrl: "https://docs.mobilint.com",
    countDownloads: `path:"config.json" OR path_extension:"mxq"`,
  }),
  ninfer: researchRepo("NInfer", "https://github.com/Neroued/ninfer", {
    countDownloads: `path_extension:"ninfer"`,
  }),
  rwkv: {
    prettyLabel: "RWKV",
    repoName: "RWKV-LM",
    repoUrl: "https://github.com/BlinkDL/RWKV-LM",
    docsUrl: "https://rwkv.com/",
    snippets: rwkvSnippets,
    filter: false,
    countDownloads: `path_extension:"pth"`,
  },
  shadow: researchRepo("Shadow", "https://github.com/QLNI/SHADOW-250M-Instruct", {
    countDownloads: `path_extension:"shdw"`,
  }),
  vqweb: researchRepo(
    "vqweb",
    "https://github.com/rosecky/embedding-quantization-public/tree/main/packages/vqweb",
    {
      docsUrl: "https://www.npmjs.com/package/@thinletterio/vqweb",
      countDownloads: `path_extension:"vqw"`,
    },
  ),
  rkllm: researchRepo("RKLLM", "https://github.com/airockchip/rknn-llm", {
    countDownloads: `path_extension:"rkllm"`,
  }),
  "unity-sentis": researchRepo("unity-sentis", "https://github.com/Unity-Technologies/sentis-samples", {
    docsUrl: "https://docs.unity3d.com/Packages/com.unity.sentis@latest",
    filter: true,
    countDownloads: `path_extension:"sentis"`,
  }),
} satisfies Record<string, ModelLibrary>;
