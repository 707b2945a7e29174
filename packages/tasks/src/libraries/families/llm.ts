import { isConversational, type ModelData } from "../../model-data.js";
import { DEFAULT_CHAT_PROMPT, exampleText, modelName } from "../examples.js";
import { pipInstall } from "../kit.js";
import { MESSAGE_TITLE, UNKNOWN_MODEL_TYPE } from "../messages.js";
import { comment, js, py, sh } from "../quote.js";
import type { ModelLibrary } from "../types.js";
import { type LibrarySnippet, snippet } from "../types.js";

/** Local LLM runtimes and the JavaScript transformers port. */

/** The GGUF file to show: a Q4_K_M file when present, else the first GGUF file, else a pattern. */
export function pickGgufFile(model: ModelData): string {
  const files = (model.siblings ?? [])
    .map((s) => s.rfilename)
    .filter((f) => f.toLowerCase().endsWith(".gguf"));
  return files.find((f) => /q4_k_m/i.test(f)) ?? files[0] ?? "*Q4_K_M.gguf";
}

export function llamaCppPythonSnippets(model: ModelData): LibrarySnippet[] {
  const load = py`from llama_cpp import Llama

llm = Llama.from_pretrained(repo_id=${model.id}, filename=${pickGgufFile(model)})`;
  const run = isConversational(model)
    ? py`output = llm.create_chat_completion(messages=[{"role": "user", "content": ${exampleText(model, DEFAULT_CHAT_PROMPT)}}])
print(output["choices"][0]["message"]["content"])`
    : py`output = llm(${exampleText(model, "Once upon a time,")}, max_tokens=128)
print(output["choices"][0]["text"])`;
  return [pipInstall(["llama-cpp-python"]), snippet(py`${load}\n\n${run}`, "Load and run")];
}

export function mlxSnippets(model: ModelData): LibrarySnippet[] {
  if (model.pipeline_tag === "image-text-to-text") {
    return [
      pipInstall(["mlx-vlm"]),
      snippet(
        py`from mlx_vlm import generate, load
from mlx_vlm.prompt_utils import apply_chat_template
from mlx_vlm.utils import load_config

model, processor = load(${model.id})
config = load_config(${model.id})
images = ["http://images.cocodataset.org/val2017/000000039769.jpg"]
prompt = apply_chat_template(processor, config, ${exampleText(model, "Describe this image.")}, num_images=len(images))
print(generate(model, processor, prompt, images))`,
        "Describe an image",
      ),
    ];
  }
  if (model.pipeline_tag === "text-generation") {
    const prompt = isConversational(model)
      ? py`messages = [{"role": "user", "content": ${exampleText(model, DEFAULT_CHAT_PROMPT)}}]
prompt = tokenizer.apply_chat_template(messages, add_generation_prompt=True)`
      : py`prompt = ${exampleText(model, "Once upon a time in")}`;
    return [
      pipInstall(["mlx-lm"]),
      snippet(
        py`from mlx_lm import generate, load

model, tokenizer = load(${model.id})
${prompt}
text = generate(model, tokenizer, prompt=prompt, verbose=True)`,
        "Generate text",
      ),
    ];
  }
  return [snippet(sh`hf download ${model.id} --local-dir ${modelName(model)}`, "Download the weights")];
}

export function mlcLlmSnippets(model: ModelData): LibrarySnippet[] {
  return [
    snippet(sh`mlc_llm chat ${`HF://${model.id}`}`, "Chat in the terminal"),
    snippet(
      py`from mlc_llm import MLCEngine

engine = MLCEngine(${`HF://${model.id}`})
response = engine.chat.completions.create(messages=[{"role": "user", "content": ${exampleText(model, DEFAULT_CHAT_PROMPT)}}])
print(response.choices[0].message.content)
engine.terminate()`,
      "Chat from Python",
    ),
  ];
}

export function transformersJsSnippets(model: ModelData): LibrarySnippet[] {
  if (!model.pipeline_tag) return [snippet(comment("js", UNKNOWN_MODEL_TYPE), MESSAGE_TITLE)];
  return [
    snippet(sh`npm i @huggingface/transformers`, "Install"),
    snippet(
      js`import { pipeline } from "@huggingface/transformers";

const pipe = await pipeline(${model.pipeline_tag}, ${model.id});`,
      "Create a pipeline",
    ),
  ];
}

export function vllmSnippets(model: ModelData): LibrarySnippet[] {
  const run = isConversational(model)
    ? py`outputs = llm.chat([{"role": "user", "content": ${exampleText(model, DEFAULT_CHAT_PROMPT)}}])`
    : py`outputs = llm.generate([${exampleText(model, "Once upon a time,")}])`;
  return [
    snippet(sh`pip install vllm\nvllm serve ${model.id}`, "Serve an OpenAI-compatible API"),
    snippet(
      py`from vllm import LLM\n\nllm = LLM(model=${model.id})\n${run}\nprint(outputs[0].outputs[0].text)`,
      "Run in Python",
    ),
  ];
}

/** ctransformers takes an exact model_file (no pattern): named only when the repository lists its GGUF files. */
function ggufFileArg(model: ModelData) {
  const file = pickGgufFile(model);
  return file.includes("*") ? py`` : py`, model_file=${file}`;
}

export function ctransformersSnippets(model: ModelData): LibrarySnippet[] {
  return [
    pipInstall(["ctransformers"]),
    snippet(
      py`from ctransformers import AutoModelForCausalLM

llm = AutoModelForCausalLM.from_pretrained(${model.id}${ggufFileArg(model)})
print(llm(${exampleText(model, "AI is going to")}))`,
      "Load and generate",
    ),
  ];
}

/** The libraries of this family, keyed by the `library_name` their models declare. */
export const LLM_LIBRARIES = {
  ctransformers: {
    prettyLabel: "CTransformers",
    repoName: "ctransformers",
    repoUrl: "https://github.com/marella/ctransformers",
    docsUrl: "https://huggingface.co/docs/hub/ctransformers",
    snippets: ctransformersSnippets,
    filter: false,
  },
  "llama-cpp-python": {
    prettyLabel: "llama-cpp-python",
    repoName: "llama-cpp-python",
    repoUrl: "https://github.com/abetlen/llama-cpp-python",
    docsUrl: "https://llama-cpp-python.readthedocs.io/en/latest/",
    snippets: llamaCppPythonSnippets,
    filter: false,
  },
  "mlc-llm": {
    prettyLabel: "MLC-LLM",
    repoName: "MLC-LLM",
    repoUrl: "https://github.com/mlc-ai/mlc-llm",
    docsUrl: "https://llm.mlc.ai/docs/",
    snippets: mlcLlmSnippets,
    filter: false,
    countDownloads: `path:"mlc-chat-config.json"`,
  },
  mlx: {
    prettyLabel: "MLX",
    repoName: "MLX",
    repoUrl: "https://github.com/ml-explore/mlx",
    docsUrl: "https://huggingface.co/docs/hub/mlx",
    snippets: mlxSnippets,
    filter: true,
  },
  "transformers.js": {
    prettyLabel: "Transformers.js",
    repoName: "transformers.js",
    repoUrl: "https://github.com/huggingface/transformers.js",
    docsUrl: "https://huggingface.co/docs/transformers.js",
    snippets: transformersJsSnippets,
    filter: true,
  },
  vllm: {
    prettyLabel: "vLLM",
    repoName: "vllm",
    repoUrl: "https://github.com/vllm-project/vllm",
    docsUrl: "https://docs.vllm.ai/en/latest/",
    snippets: vllmSnippets,
    filter: false,
  },
} satisfies Record<string, ModelLibrary>;
