import { otherHubUrl } from "../hub-endpoint.js";
import { type Code, joinCode, sh } from "../libraries/quote.js";
import { isConversational, type ModelData } from "../model-data.js";
import { hasGgufFiles } from "./gguf-files.js";
import { isRyzenAiModel } from "./model-traits.js";
import { chooseQuant, type QuantChoice } from "./quant-choice.js";
import type { LocalAppOptions, LocalAppSnippet } from "./types.js";
import { DEFAULT_HUB_URL, resolveUrl } from "./urls.js";

/**
 * Terminal snippets of the local apps. Every model-derived value (id, file path, label) enters a command
 * only through the `sh` tag, which writes it as one shell word; the fixed text around it is our own.
 */

const CHAT_QUESTION = "What is the capital of France?";
/** Release assets carry the version in their name, so the download is pinned. */
const LLAMAFILE_VERSION = "0.9.3";

export function block(...lines: Code<"sh">[]): string {
  return joinCode("sh", lines).text;
}

/** `repo:label` when the file announces its quantization, which tools pull by tag. */
export function repoWithTag(model: ModelData, quant: QuantChoice): string {
  return quant.label === undefined ? model.id : `${model.id}:${quant.label}`;
}

/**
 * Arguments that point llama.cpp at the model: `-hf repo:label`, or the exact file when it has no label.
 * On another hub than huggingface.co always the exact file: `repo:label` is resolved through an
 * Ollama-style manifest API (`/v2/{repo}/manifests/{label}`) that only the public hub answers, while a
 * named file is fetched from `/{repo}/resolve/main/{file}` on whatever hub HF_ENDPOINT names.
 */
export function llamaCppSource(
  model: ModelData,
  quant: QuantChoice,
  options: LocalAppOptions = {},
): Code<"sh"> {
  const byTag = quant.label !== undefined && otherHubUrl(options.hubUrl) === undefined;
  if (byTag || quant.file === undefined) return sh`-hf ${repoWithTag(model, quant)}`;
  return sh`--hf-repo ${model.id} --hf-file ${quant.file}`;
}

/**
 * `HF_ENDPOINT=<hub> ` before a command that downloads through huggingface_hub, llama.cpp or
 * node-llama-cpp (each reads that variable), on another hub than huggingface.co; nothing on the public hub.
 */
export function hubEnv(options: LocalAppOptions): Code<"sh"> {
  const hubUrl = otherHubUrl(options.hubUrl);
  return hubUrl === undefined ? sh`` : sh`HF_ENDPOINT=${hubUrl} `;
}

/** `  -e HF_ENDPOINT=<hub> \` for a `docker run` whose image downloads the model, on another hub. */
function dockerHubEnv(options: LocalAppOptions): Code<"sh">[] {
  const hubUrl = otherHubUrl(options.hubUrl);
  return hubUrl === undefined ? [] : [sh`  -e HF_ENDPOINT=${hubUrl} \\`];
}

function chatRequest(port: number, modelId: string): Code<"sh"> {
  const body = JSON.stringify(
    { model: modelId, messages: [{ role: "user", content: CHAT_QUESTION }] },
    null,
    2,
  );
  return joinCode("sh", [
    sh`# Call the server (OpenAI-compatible API):`,
    sh`curl -X POST ${`http://localhost:${port}/v1/chat/completions`} \\`,
    sh`  -H 'Content-Type: application/json' \\`,
    sh`  --data ${body}`,
  ]);
}

export function llamaCppSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const source = llamaCppSource(model, chooseQuant(model, quantFilePath), options);
  const env = hubEnv(options);
  const content = (server: Code<"sh">, cli: Code<"sh">): string[] => [
    block(sh`# Start a local OpenAI-compatible server with a web UI:`, sh`${env}${server} ${source}`),
    block(sh`# Or chat in the terminal:`, sh`${env}${cli} ${source}`),
  ];
  return [
    {
      title: "Install with Homebrew",
      language: "sh",
      setup: "brew install llama.cpp",
      content: content(sh`llama-server`, sh`llama-cli`),
    },
    {
      title: "Use a pre-built binary",
      language: "sh",
      setup: "# Download a release for your platform from https://github.com/ggml-org/llama.cpp/releases",
      content: content(sh`./llama-server`, sh`./llama-cli`),
    },
    {
      title: "Build from source",
      language: "sh",
      setup: [
        "git clone https://github.com/ggml-org/llama.cpp.git",
        "cd llama.cpp",
        "cmake -B build",
        "cmake --build build --config Release -j --target llama-server llama-cli",
      ].join("\n"),
      content: content(sh`./build/bin/llama-server`, sh`./build/bin/llama-cli`),
    },
  ];
}

export function nodeLlamaCppSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const quant = chooseQuant(model, quantFilePath);
  const ref = quant.file === undefined ? `hf:${model.id}` : `hf:${model.id}/${quant.file}`;
  const env = hubEnv(options);
  return [
    {
      title: "Chat with the model",
      language: "sh",
      content: [block(sh`${env}npx -y node-llama-cpp chat --model ${ref} --prompt ${CHAT_QUESTION}`)],
    },
    {
      title: "Check it fits your hardware",
      language: "sh",
      content: [block(sh`${env}npx -y node-llama-cpp inspect estimate ${ref}`)],
    },
  ];
}

/**
 * A local model name for a tool that names imported files (Ollama, Docker Model Runner): the repository's
 * name in lower case with the quantization as tag, reduced to the characters those names allow.
 */
export function importedModelName(model: ModelData, quant: QuantChoice): string {
  const clean = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/^[-._]+|[-._]+$/g, "");
  const name = clean(model.id.slice(model.id.indexOf("/") + 1)) || "model";
  const tag = quant.label === undefined ? "" : clean(quant.label);
  return tag === "" ? name : `${name}:${tag}`;
}

export function ollamaSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const quant = chooseQuant(model, quantFilePath);
  const hubUrl = otherHubUrl(options.hubUrl);
  if (hubUrl !== undefined) {
    // Ollama pulls `hf.co/...` from huggingface.co's registry only: this hub's file is imported instead.
    if (quant.file === undefined) return [];
    const name = importedModelName(model, quant);
    return [
      {
        title: "Download from this hub, then import into Ollama",
        language: "sh",
        setup: "# Ollama pulls only from its own registry and huggingface.co (hf.co/...), not from this hub.",
        content: [
          block(
            ...downloads(hubUrl, model, [quant.file]),
            sh`printf 'FROM ./%s\\n' ${baseName(quant.file)} > Modelfile`,
            sh`ollama create ${name} -f Modelfile`,
            sh`ollama run ${name}`,
          ),
        ],
      },
    ];
  }
  const tag = repoWithTag(model, quant);
  return [{ title: "Run with Ollama", language: "sh", content: [block(sh`ollama run ${`hf.co/${tag}`}`)] }];
}

export function dockerModelRunnerSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const quant = chooseQuant(model, quantFilePath);
  const hubUrl = otherHubUrl(options.hubUrl);
  if (hubUrl !== undefined) {
    // Docker Model Runner pulls from Docker Hub and huggingface.co: this hub's file is packaged locally.
    if (quant.file === undefined) return [];
    const name = importedModelName(model, quant);
    return [
      {
        title: "Download from this hub, then package it for Docker Model Runner",
        language: "sh",
        setup:
          "# Docker Model Runner pulls from Docker Hub and huggingface.co (hf.co/...), not from this hub.",
        content: [
          block(
            ...downloads(hubUrl, model, quant.files),
            sh`docker model package --gguf "$PWD"/${baseName(quant.file)} ${name}`,
            sh`docker model run ${name}`,
          ),
        ],
      },
    ];
  }
  const tag = repoWithTag(model, quant);
  return [
    {
      title: "Run with Docker Model Runner",
      language: "sh",
      setup: "# Needs Docker Desktop, or Docker Engine with the docker-model-plugin package",
      content: [block(sh`docker model run ${`hf.co/${tag}`}`)],
    },
  ];
}

export function localAiSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const quant = chooseQuant(model, quantFilePath);
  const env = hubEnv(options);
  const uri =
    quant.file === undefined ? `huggingface://${model.id}` : `huggingface://${model.id}/${quant.file}`;
  return [
    {
      title: "Install the binary",
      language: "sh",
      setup: "curl https://localai.io/install.sh | sh",
      content: [block(sh`${env}local-ai run ${uri}`)],
    },
    {
      title: "Use the Docker image",
      language: "sh",
      setup: "docker pull localai/localai:latest-cpu",
      content: [
        block(
          sh`docker run -p 8080:8080 --name localai -v "$PWD/models:/models" \\`,
          ...dockerHubEnv(options),
          sh`  localai/localai:latest-cpu run ${uri}`,
        ),
      ],
    },
  ];
}

export function vllmSnippets(
  model: ModelData,
  _quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  return [
    {
      title: "Install with pip",
      language: "sh",
      setup: "pip install vllm",
      content: [
        block(sh`# Start the server:`, sh`${hubEnv(options)}vllm serve ${model.id}`),
        chatRequest(8000, model.id).text,
      ],
    },
    {
      title: "Use the Docker image",
      language: "sh",
      setup: "docker pull vllm/vllm-openai:latest",
      content: [
        block(
          sh`docker run --gpus all -p 8000:8000 --ipc=host \\`,
          sh`  -v ~/.cache/huggingface:/root/.cache/huggingface \\`,
          sh`  -e HF_TOKEN \\`,
          ...dockerHubEnv(options),
          sh`  vllm/vllm-openai:latest --model ${model.id}`,
        ),
        chatRequest(8000, model.id).text,
      ],
    },
  ];
}

export function sglangSnippets(
  model: ModelData,
  _quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  return [
    {
      title: "Install with pip",
      language: "sh",
      setup: 'pip install "sglang[all]"',
      content: [
        block(
          sh`# Start the server:`,
          sh`${hubEnv(options)}python3 -m sglang.launch_server --model-path ${model.id} --host 0.0.0.0 --port 30000`,
        ),
        chatRequest(30000, model.id).text,
      ],
    },
    {
      title: "Use the Docker image",
      language: "sh",
      setup: "docker pull lmsysorg/sglang:latest",
      content: [
        block(
          sh`docker run --gpus all --shm-size 32g -p 30000:30000 --ipc=host \\`,
          sh`  -v ~/.cache/huggingface:/root/.cache/huggingface \\`,
          sh`  -e HF_TOKEN \\`,
          ...dockerHubEnv(options),
          sh`  lmsysorg/sglang:latest \\`,
          sh`  python3 -m sglang.launch_server --model-path ${model.id} --host 0.0.0.0 --port 30000`,
        ),
        chatRequest(30000, model.id).text,
      ],
    },
  ];
}

/** The last path segment: where a download lands in the current directory. */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** curl commands that fetch `files` of the model into the current directory, with the token when needed. */
function downloads(hubUrl: string, model: ModelData, files: string[]): Code<"sh">[] {
  const needsToken = model.private === true || (model.gated !== undefined && model.gated !== false);
  return files.map((file) =>
    needsToken
      ? sh`curl -L -H "Authorization: Bearer $HF_TOKEN" -o ${baseName(file)} ${resolveUrl(hubUrl, model.id, file)}`
      : sh`curl -L -o ${baseName(file)} ${resolveUrl(hubUrl, model.id, file)}`,
  );
}

export function llamafileSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const hubUrl = options.hubUrl ?? DEFAULT_HUB_URL;
  const llamafile = model.siblings?.find((file) =>
    file.rfilename.toLowerCase().endsWith(".llamafile"),
  )?.rfilename;
  if (llamafile !== undefined && quantFilePath === undefined) {
    const local = `./${baseName(llamafile)}`;
    return [
      {
        title: "Download and run the llamafile",
        language: "sh",
        content: [block(...downloads(hubUrl, model, [llamafile]), sh`chmod +x ${local}`, sh`${local}`)],
      },
    ];
  }
  const quant = chooseQuant(model, quantFilePath);
  if (quant.file === undefined) return [];
  return [
    {
      title: "Run the GGUF file with llamafile",
      language: "sh",
      setup: [
        `curl -L -o llamafile https://github.com/Mozilla-Ocho/llamafile/releases/download/${LLAMAFILE_VERSION}/llamafile-${LLAMAFILE_VERSION}`,
        "chmod +x llamafile",
      ].join("\n"),
      content: [block(...downloads(hubUrl, model, quant.files), sh`./llamafile -m ${baseName(quant.file)}`)],
    },
  ];
}

export function mlxLmSnippets(
  model: ModelData,
  _quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const env = hubEnv(options);
  const run = isConversational(model)
    ? block(sh`# Chat in the terminal:`, sh`${env}mlx_lm.chat --model ${model.id}`)
    : block(sh`${env}mlx_lm.generate --model ${model.id} --prompt ${CHAT_QUESTION}`);
  return [
    {
      title: "Install with pip (Apple silicon)",
      language: "sh",
      setup: "pip install mlx-lm",
      content: [
        run,
        block(
          sh`# Or start an OpenAI-compatible server on port 8080:`,
          sh`${env}mlx_lm.server --model ${model.id}`,
        ),
      ],
    },
  ];
}

export function tgiSnippets(
  model: ModelData,
  _quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  return [
    {
      title: "Use the Docker image",
      language: "sh",
      setup: "docker pull ghcr.io/huggingface/text-generation-inference:latest",
      content: [
        block(
          sh`# Start the server (gated models also need -e HF_TOKEN):`,
          sh`docker run --gpus all --shm-size 1g -p 8080:80 \\`,
          sh`  -v ~/.cache/huggingface:/data \\`,
          ...dockerHubEnv(options),
          sh`  ghcr.io/huggingface/text-generation-inference:latest --model-id ${model.id}`,
        ),
        chatRequest(8080, model.id).text,
      ],
    },
  ];
}

/**
 * Lemonade registers a pulled model as `user.<repository name>`, with `-<label>` for a GGUF quantization;
 * Ryzen AI builds (ONNX for the NPU) have one variant and no label.
 */
export function lemonadeSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const name = model.id.slice(model.id.indexOf("/") + 1);
  const ryzen = isRyzenAiModel(model) && !hasGgufFiles(model);
  const quant = ryzen ? undefined : chooseQuant(model, quantFilePath);
  const pulled = quant === undefined ? model.id : repoWithTag(model, quant);
  const registered = quant?.label === undefined ? `user.${name}` : `user.${name}-${quant.label}`;
  return [
    {
      title: ryzen ? "Pull and chat (needs an XDNA 2 NPU)" : "Pull and chat",
      language: "sh",
      setup: "# Install Lemonade Server from https://lemonade-server.ai",
      content: [block(sh`${hubEnv(options)}lemonade pull ${pulled}`, sh`lemonade run ${registered}`)],
    },
  ];
}

/**
 * For an app that opens models from huggingface.co only (the desktop apps' links): on another hub, the
 * model's files fetched with `hf download` (which reads HF_ENDPOINT, and HF_TOKEN for a private or gated
 * repository), to open from disk in the app. Undefined on the public hub, where the app's link works.
 */
export function downloadFromHub(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet | undefined {
  if (otherHubUrl(options.hubUrl) === undefined) return undefined;
  const { files } = chooseQuant(model, quantFilePath);
  const folder = model.id.slice(model.id.indexOf("/") + 1) || "model";
  return {
    title: "Download from this hub",
    language: "sh",
    setup: "pip install -U huggingface_hub",
    content: [block(sh`${hubEnv(options)}hf download ${model.id} ${files} --local-dir ${folder}`)],
  };
}
