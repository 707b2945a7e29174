import type { ModelData } from "../../model-data.js";
import { readme, researchRepo } from "../define.js";
import { modelName } from "../examples.js";
import { repoFile } from "../kit.js";
import { type Code, py, sh } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";
import { llamaCppPythonSnippets, pickGgufFile } from "./llm.js";

/**
 * Weight formats and runtimes the hub lists among its libraries (PyTorch, ONNX, GGUF...). Their loading code
 * opens the repository's weight file with the runtime's own loader.
 */

function loadFile(
  title: string,
  build: (file: Code<"python">) => Code<"python">,
  extensions: readonly string[],
  fallback: string,
) {
  return (model: ModelData): LibrarySnippet[] => [
    snippet(build(py`hf_hub_download(${model.id}, ${repoFile(model, extensions, fallback)})`), title),
  ];
}

export const pytorchSnippets = loadFile(
  "Load the state dict",
  (file) => py`import torch
from huggingface_hub import hf_hub_download

state_dict = torch.load(${file}, map_location="cpu", weights_only=True)`,
  [".bin", ".pt", ".pth"],
  "pytorch_model.bin",
);

export const safetensorsSnippets = loadFile(
  "Load the tensors",
  (file) => py`from huggingface_hub import hf_hub_download
from safetensors.torch import load_file

tensors = load_file(${file})`,
  [".safetensors"],
  "model.safetensors",
);

export const onnxSnippets = loadFile(
  "Open an inference session",
  (file) => py`import onnxruntime as ort
from huggingface_hub import hf_hub_download

session = ort.InferenceSession(${file})
print([i.name for i in session.get_inputs()])`,
  [".onnx"],
  "model.onnx",
);

export const joblibSnippets = loadFile(
  "Load the object",
  (file) => py`import joblib
from huggingface_hub import hf_hub_download

# joblib files can run code when loaded: only load them from sources you trust.
model = joblib.load(${file})`,
  [".joblib", ".pkl"],
  "model.joblib",
);

export const tfliteSnippets = loadFile(
  "Open an interpreter",
  (file) => py`from ai_edge_litert.interpreter import Interpreter
from huggingface_hub import hf_hub_download

interpreter = Interpreter(model_path=${file})
interpreter.allocate_tensors()`,
  [".tflite"],
  "model.tflite",
);

export const executorchSnippets = loadFile(
  "Load the program",
  (file) => py`from executorch.runtime import Runtime
from huggingface_hub import hf_hub_download

program = Runtime.get().load_program(${file})
method = program.load_method("forward")`,
  [".pte"],
  "model.pte",
);

export const jaxSnippets = loadFile(
  "Restore the parameters",
  (file) => py`from flax.serialization import msgpack_restore
from huggingface_hub import hf_hub_download

with open(${file}, "rb") as f:
    params = msgpack_restore(f.read())`,
  [".msgpack"],
  "flax_model.msgpack",
);

export function tensorflowSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import tensorflow as tf
from huggingface_hub import snapshot_download

model = tf.saved_model.load(snapshot_download(repo_id=${model.id}))`,
      "Load a SavedModel",
    ),
  ];
}

export function openvinoSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import openvino as ov
from huggingface_hub import snapshot_download

model_dir = snapshot_download(repo_id=${model.id})
compiled = ov.Core().compile_model(model_dir + "/" + ${repoFile(model, [".xml"], "openvino_model.xml")}, "CPU")`,
      "Compile the model",
    ),
  ];
}

export function ggufSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(sh`llama-server -hf ${`${model.id}:${quantOf(pickGgufFile(model))}`}`, "Serve with llama.cpp"),
    ...llamaCppPythonSnippets(model),
  ];
}

/** llama.cpp's -hf option takes repo:QUANT; the quantization is read from the file name (…-Q4_K_M.gguf). */
function quantOf(file: string): string {
  return /(I?Q\d(?:_[A-Z0-9]+)*|BF16|F16|F32)(?=\.gguf$)/i.exec(file)?.[1]?.toUpperCase() ?? "Q4_K_M";
}

export function tensorboardSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      sh`hf download ${model.id} --local-dir ${modelName(model)}\ntensorboard --logdir ${modelName(model)}`,
      "Browse the logs",
    ),
  ];
}

export function llamafileSnippets(model: ModelData): LibrarySnippet[] {
  const file = repoFile(model, [".llamafile"], `${modelName(model)}.llamafile`);
  return [
    snippet(
      sh`hf download ${model.id} ${file} --local-dir .\nchmod +x ${`./${file}`}\n${`./${file}`}`,
      "Run the llamafile",
    ),
  ];
}

export function dduf(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import torch
from diffusers import DiffusionPipeline

pipe = DiffusionPipeline.from_pretrained(${model.id}, dduf_file=${repoFile(model, [".dduf"], "model.dduf")}, torch_dtype=torch.bfloat16)`,
      "Load the pipeline",
    ),
  ];
}

export function ctranslate2Snippets(model: ModelData): LibrarySnippet[] {
  if (model.pipeline_tag === "automatic-speech-recognition") {
    return [
      snippet(
        py`from faster_whisper import WhisperModel

model = WhisperModel(${model.id})
segments, info = model.transcribe("audio.mp3")
for segment in segments:
    print(segment.start, segment.end, segment.text)`,
        "Transcribe with faster-whisper",
      ),
    ];
  }
  return [
    snippet(
      py`import ctranslate2
from huggingface_hub import snapshot_download

generator = ctranslate2.Generator(snapshot_download(repo_id=${model.id}), device="cpu")`,
      "Load the model",
    ),
  ];
}

export function kerasNlpSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import keras_nlp

backbone = keras_nlp.models.Backbone.from_preset(${`hf://${model.id}`})`,
      "Load the backbone",
    ),
  ];
}

/** Core ML models are a .mlmodel file or a .mlpackage directory. */
function coremlPath(model: ModelData): string {
  for (const { rfilename } of model.siblings ?? []) {
    const pkg = /^(.*?\.mlpackage)\//.exec(rfilename)?.[1];
    if (pkg) return pkg;
    if (rfilename.endsWith(".mlmodel")) return rfilename;
  }
  return "model.mlpackage";
}

export function coremlSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(
      py`import coremltools as ct
from huggingface_hub import snapshot_download

model_dir = snapshot_download(repo_id=${model.id})
model = ct.models.MLModel(model_dir + "/" + ${coremlPath(model)})`,
      "Load the Core ML model",
    ),
  ];
}

/** TensorRT builds an engine from an ONNX export with its `trtexec` tool. */
export function tensorrtSnippets(model: ModelData): LibrarySnippet[] {
  const file = repoFile(model, [".onnx"], "model.onnx");
  return [
    snippet(
      sh`hf download ${model.id} ${file} --local-dir .
trtexec --onnx=${file} --saveEngine=model.engine`,
      "Build a TensorRT engine",
    ),
  ];
}

/** MITIE models are `.dat` files opened by the class of the same name. */
export const mitieSnippets = loadFile(
  "Load the word feature extractor",
  (file) => py`from huggingface_hub import hf_hub_download
from mitie import total_word_feature_extractor

extractor = total_word_feature_extractor(${file})`,
  ["total_word_feature_extractor.dat"],
  "total_word_feature_extractor.dat",
);

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const FORMATS_LIBRARIES = {
  coreml: {
    prettyLabel: "Core ML",
    repoName: "coremltools",
    repoUrl: "https://github.com/apple/coremltools",
    docsUrl: "https://apple.github.io/coremltools/docs-guides/",
    snippets: coremlSnippets,
    filter: true,
    countDownloads: `path_extension:"mlmodel" OR path_extension:"mlpackage"`,
  },
  ctranslate2: {
    prettyLabel: "CTranslate2",
    repoName: "CTranslate2",
    repoUrl: "https://github.com/OpenNMT/CTranslate2",
    docsUrl: "https://opennmt.net/CTranslate2/",
    snippets: ctranslate2Snippets,
    filter: false,
    countDownloads: `path:"model.bin"`,
  },
  dduf: {
    prettyLabel: "DDUF",
    repoName: "DDUF",
    repoUrl: "https://github.com/huggingface/diffusers",
    docsUrl: "https://huggingface.co/docs/hub/dduf",
    snippets: dduf,
    filter: false,
    countDownloads: `path_extension:"dduf"`,
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
  gguf: {
    prettyLabel: "GGUF",
    repoName: "llama.cpp",
    repoUrl: "https://github.com/ggml-org/llama.cpp",
    docsUrl: "https://huggingface.co/docs/hub/gguf",
    snippets: ggufSnippets,
    filter: true,
    countDownloads: `path_extension:"gguf"`,
  },
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
  "keras-nlp": {
    prettyLabel: "KerasNLP",
    repoName: "KerasNLP",
    repoUrl: "https://github.com/keras-team/keras-hub",
    docsUrl: "https://keras.io/keras_hub/",
    snippets: kerasNlpSnippets,
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
  "llama.cpp": {
    prettyLabel: "llama.cpp",
    repoName: "llama.cpp",
    repoUrl: "https://github.com/ggml-org/llama.cpp",
    docsUrl: "https://huggingface.co/docs/hub/gguf-llamacpp",
    snippets: ggufSnippets,
    filter: false,
    countDownloads: `path_extension:"gguf"`,
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
  mitie: researchRepo("MITIE", "https://github.com/mit-nlp/MITIE", {
    snippets: mitieSnippets,
    countDownloads: `path_filename:"total_word_feature_extractor"`,
  }),
  onnx: {
    prettyLabel: "ONNX",
    repoName: "onnxruntime",
    repoUrl: "https://github.com/microsoft/onnxruntime",
    docsUrl: "https://onnxruntime.ai/docs/",
    snippets: onnxSnippets,
    filter: true,
    countDownloads: `path_extension:"onnx"`,
  },
  openvino: {
    prettyLabel: "OpenVINO",
    repoName: "openvino",
    repoUrl: "https://github.com/openvinotoolkit/openvino",
    docsUrl: "https://docs.openvino.ai/",
    snippets: openvinoSnippets,
    filter: true,
    countDownloads: `path_extension:"xml"`,
  },
  pytorch: {
    prettyLabel: "PyTorch",
    repoName: "pytorch",
    repoUrl: "https://github.com/pytorch/pytorch",
    docsUrl: "https://pytorch.org/docs/stable/index.html",
    snippets: pytorchSnippets,
    filter: true,
    countDownloads: `path_extension:"bin" OR path_extension:"pt" OR path_extension:"pth"`,
  },
  safetensors: {
    prettyLabel: "Safetensors",
    repoName: "safetensors",
    repoUrl: "https://github.com/huggingface/safetensors",
    docsUrl: "https://huggingface.co/docs/safetensors",
    snippets: safetensorsSnippets,
    filter: true,
    countDownloads: `path_extension:"safetensors"`,
  },
  tensorboard: {
    prettyLabel: "TensorBoard",
    repoName: "tensorboard",
    repoUrl: "https://github.com/tensorflow/tensorboard",
    docsUrl: "https://huggingface.co/docs/hub/tensorboard",
    snippets: tensorboardSnippets,
    filter: true,
    countDownloads: `path_prefix:"runs/"`,
  },
  tensorrt: {
    prettyLabel: "TensorRT",
    repoName: "TensorRT",
    repoUrl: "https://github.com/NVIDIA/TensorRT",
    docsUrl: "https://docs.nvidia.com/deeplearning/tensorrt/",
    snippets: tensorrtSnippets,
    filter: false,
    countDownloads: `path_extension:"onnx"`,
  },
  tf: {
    prettyLabel: "TensorFlow",
    repoName: "tensorflow",
    repoUrl: "https://github.com/tensorflow/tensorflow",
    docsUrl: "https://www.tensorflow.org/api_docs",
    snippets: tensorflowSnippets,
    filter: true,
    countDownloads: `path:"saved_model.pb" OR path_extension:"h5"`,
  },
  tflite: {
    prettyLabel: "LiteRT",
    repoName: "LiteRT",
    repoUrl: "https://github.com/google-ai-edge/LiteRT",
    docsUrl: "https://ai.google.dev/edge/litert",
    snippets: tfliteSnippets,
    filter: true,
    countDownloads: `path_extension:"tflite"`,
  },
} satisfies Record<string, ModelLibrary>;
