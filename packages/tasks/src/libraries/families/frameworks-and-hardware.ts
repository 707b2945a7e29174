import type { ModelData } from "../../model-data.js";
import { py } from "../quote.js";
import { pipInstall, repoFile } from "../snippets/kit.js";
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
