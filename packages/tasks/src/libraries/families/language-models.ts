import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { exampleText } from "../examples.js";
import { cloneDownloadRun, downloadWeights, fromPretrained, repoFile } from "../kit.js";
import { py, sh } from "../quote.js";
import type { ModelLibrary } from "../types.js";
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

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const LANGUAGE_MODELS_LIBRARIES = {
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
    snippets: fromPretrained({
      pip: ["--no-binary", ":all:", "cartesia-pytorch"],
      module: "cartesia_pytorch",
      name: "ReneLMHeadModel",
    }),
    filter: false,
  },
  "cloud-agents": researchRepo("Cloud Agents", "https://huggingface.co/OpenPeerAI/Cloud-Agents", {
    countDownloads: `path:"setup.py"`,
  }),
  "diff-interpretation-tuning": researchRepo(
    "Diff Interpretation Tuning",
    "https://github.com/Aviously/diff-interpretation-tuning",
    {
      countDownloads: `path_extension:"pt"`,
    },
  ),
  elm: researchRepo("ELM", "https://github.com/slicex-ai/elm", {
    repoName: "elm",
    countDownloads: `path_filename:"slicex_elm_config" AND path_extension:"json"`,
  }),
  "gemma.cpp": researchRepo("gemma.cpp", "https://github.com/google/gemma.cpp", {
    countDownloads: `path_extension:"sbs"`,
  }),
  "granite-library": researchRepo("Granite Library", "https://github.com/generative-computing/mellea", {
    repoName: "mellea",
    countDownloads: `path_filename:"adapter_config" AND path_extension:"json"`,
  }),
  grok: researchRepo("Grok", "https://github.com/xai-org/grok-1", {
    countDownloads: `path:"ckpt/tensor00000_000" OR path:"ckpt-0/tensor00000_000"`,
    snippets: grokSnippets,
  }),
  "litert-lm": researchRepo("LiteRT-LM", "https://github.com/google-ai-edge/LiteRT-LM", {
    snippets: litertLmSnippets,
    countDownloads: `path_extension:"litertlm"`,
  }),
  "mamba-ssm": {
    prettyLabel: "MambaSSM",
    repoName: "MambaSSM",
    repoUrl: "https://github.com/state-spaces/mamba",
    docsUrl: readme("https://github.com/state-spaces/mamba"),
    snippets: fromPretrained({
      pip: "mamba-ssm",
      module: "mamba_ssm.models.mixer_seq_simple",
      name: "MambaLMHeadModel",
    }),
    filter: false,
  },
  openpeerllm: researchRepo("OpenPeerLLM", "https://huggingface.co/OpenPeerAI/OpenPeerLLM", {
    docsUrl: "https://huggingface.co/OpenPeerAI/OpenPeerLLM/blob/main/README.md",
    countDownloads: `path:".meta-huggingface.json"`,
  }),
  recurrentgemma: researchRepo("RecurrentGemma", "https://github.com/google-deepmind/recurrentgemma", {
    snippets: recurrentGemmaSnippets,
    countDownloads: `path:"tokenizer.model"`,
  }),
  saelens: researchRepo("SAELens", "https://github.com/jbloomAus/SAELens", {
    docsUrl: "https://jbloomaus.github.io/SAELens/",
  }),
} satisfies Record<string, ModelLibrary>;
