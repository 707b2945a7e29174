import type { ModelData } from "../../model-data.js";
import { exampleText } from "../examples.js";
import { py, sh } from "../quote.js";
import { cloneDownloadRun, downloadWeights, repoFile } from "../snippets/kit.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** Language-model code bases and on-device runtimes with their own loaders or scripts. */

export function cartesiaMlxSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import cartesia_mlx as cmx
import mlx.core as mx

model = cmx.from_pretrained(${model.id})
model.set_dtype(mx.float32)
for text in model.generate(${exampleText(model, "Rene Descartes was")}, max_tokens=200):
    print(text, end="", flush=True)`,
      "Generate text",
    ),
  ];
}

/** RecurrentGemma's PyTorch checkpoints (`.pt` files) build the Griffin network from their own parameters. */
const recurrentGemmaDownload = downloadWeights("https://github.com/google-deepmind/recurrentgemma#readme");

export function recurrentGemmaSnippets(model: ModelData): LibrarySnippet[] {
  const checkpoint = model.siblings?.find((s) => s.rfilename.toLowerCase().endsWith(".pt"))?.rfilename;
  if (checkpoint === undefined) return recurrentGemmaDownload(model);
  return [
    snippet(
      py`import sentencepiece as spm
import torch
from huggingface_hub import hf_hub_download
from recurrentgemma import torch as recurrentgemma

params = torch.load(hf_hub_download(${model.id}, ${checkpoint}), map_location="cpu")
model = recurrentgemma.Griffin(recurrentgemma.GriffinConfig.from_torch_params(params))
model.load_state_dict(params)
vocab = spm.SentencePieceProcessor()
vocab.Load(hf_hub_download(${model.id}, "tokenizer.model"))
sampler = recurrentgemma.Sampler(model=model, vocab=vocab)
output = sampler(["Where is Paris?"], total_generation_steps=64)`,
      "Load the model and sample",
    ),
  ];
}

/** LiteRT-LM runs `.litertlm` bundles with its command-line engine, built from the repository. */
export function litertLmSnippets(model: ModelData): LibrarySnippet[] {
  const file = repoFile(model, [".litertlm"], "model.litertlm");
  return [
    snippet(
      sh`git clone https://github.com/google-ai-edge/LiteRT-LM
cd LiteRT-LM
bazel build //runtime/engine:litert_lm_main
hf download ${model.id} ${file} --local-dir .
bazel-bin/runtime/engine/litert_lm_main --backend=cpu --model_path=${file} --input_prompt="What is the tallest mountain?"`,
      "Build the engine and chat",
    ),
  ];
}

export const grokSnippets = cloneDownloadRun(
  "https://github.com/xai-org/grok-1",
  "checkpoints",
  sh`python run.py`,
);
