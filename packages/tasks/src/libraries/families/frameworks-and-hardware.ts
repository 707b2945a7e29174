import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { fromPretrained, pipInstall, repoFile } from "../kit.js";
import { py } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** Training and inference frameworks and accelerator configurations: their own formats and loaders. */

export function fastaiSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`from huggingface_hub import from_pretrained_fastai

learn = from_pretrained_fastai(${model.id})`,
      "Load the learner",
    ),
  ];
}

/** Habana (Gaudi) and Graphcore (IPU) repositories hold the hardware configuration used with optimum. */
export function gaudiConfigSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["optimum-habana"]),
    snippet(
      py`from optimum.habana import GaudiConfig\n\ngaudi_config = GaudiConfig.from_pretrained(${model.id})`,
      "Load the Gaudi configuration",
    ),
  ];
}

export function ipuConfigSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["optimum-graphcore"]),
    snippet(
      py`from optimum.graphcore import IPUConfig\n\nipu_config = IPUConfig.from_pretrained(${model.id})`,
      "Load the IPU configuration",
    ),
  ];
}

export function paddlepaddleSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import paddle
from huggingface_hub import hf_hub_download

state_dict = paddle.load(hf_hub_download(${model.id}, ${repoFile(model, [".pdparams"], "model_state.pdparams")}))`,
      "Load the parameters",
    ),
  ];
}

export function mindsporeSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import mindspore as ms
from huggingface_hub import hf_hub_download

param_dict = ms.load_checkpoint(hf_hub_download(${model.id}, ${repoFile(model, [".ckpt"], "model.ckpt")}))`,
      "Load the checkpoint",
    ),
  ];
}

/** One library under two library names (`pruna`, `pruna-ai`), labelled apart. */
const pruna = {
  prettyLabel: "Pruna",
  repoName: "pruna",
  repoUrl: "https://github.com/PrunaAI/pruna",
  docsUrl: "https://docs.pruna.ai/",
  snippets: fromPretrained({ pip: "pruna", module: "pruna", name: "PrunaModel" }),
  filter: false,
} satisfies ModelLibrary;

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const FRAMEWORKS_AND_HARDWARE_LIBRARIES = {
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
  graphcore: researchRepo("Graphcore", "https://github.com/huggingface/optimum-graphcore", {
    docsUrl: "https://huggingface.co/docs/optimum/graphcore/index",
    snippets: ipuConfigSnippets,
  }),
  habana: researchRepo("Habana", "https://github.com/huggingface/optimum-habana", {
    docsUrl: "https://huggingface.co/docs/optimum/habana/index",
    snippets: gaudiConfigSnippets,
  }),
  kernels: {
    prettyLabel: "Kernels",
    repoName: "kernels",
    repoUrl: "https://github.com/huggingface/kernels",
    docsUrl: readme("https://github.com/huggingface/kernels"),
    snippets: fromPretrained({
      pip: "kernels",
      module: "kernels",
      name: "get_kernel",
      method: null,
      variable: "kernel",
    }),
    filter: false,
  },
  mindspore: researchRepo("MindSpore", "https://github.com/mindspore-ai/mindspore", {
    repoName: "mindspore",
    docsUrl: "https://www.mindspore.cn/docs/en/master/index.html",
    snippets: mindsporeSnippets,
  }),
  paddlepaddle: researchRepo("PaddlePaddle", "https://github.com/PaddlePaddle/Paddle", {
    docsUrl: "https://www.paddlepaddle.org.cn/documentation/docs/en/guides/index_en.html",
    snippets: paddlepaddleSnippets,
  }),
  pruna,
  "pruna-ai": { ...pruna, prettyLabel: "Pruna AI" },
  pxia: {
    prettyLabel: "pxia",
    repoName: "pxia",
    repoUrl: "https://github.com/not-lain/pxia",
    docsUrl: readme("https://github.com/not-lain/pxia"),
    snippets: fromPretrained({ pip: "pxia", module: "pxia", name: "AutoModel" }),
    filter: false,
  },
  rust: researchRepo("Rust", "https://github.com/huggingface/candle", {
    docsUrl: "https://huggingface.github.io/candle/",
  }),
} satisfies Record<string, ModelLibrary>;
