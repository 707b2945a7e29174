import { type Code, comment, joinCode, sh } from "../libraries/quote.js";
import type { ModelData } from "../model-data.js";
import { isMlxModel } from "./model-traits.js";
import { chooseQuant } from "./quant-choice.js";
import { block, hubEnv, llamaCppSource, repoWithTag } from "./snippets.js";
import type { LocalAppOptions, LocalAppSnippet } from "./types.js";

/**
 * Coding agents that run on a local model: the model is served on this machine behind an OpenAI-compatible
 * API on port 8080 (llama.cpp for GGUF, MLX LM for MLX weights), then the agent is pointed at it.
 */

const LOCAL_BASE_URL = "http://127.0.0.1:8080/v1";

interface LocalServer {
  /** The provider name the agent's configuration files the server under. */
  providerId: "llama-cpp" | "mlx-lm";
  /** The model name requests carry. */
  servedId: string;
  step: LocalAppSnippet;
}

function localServer(model: ModelData, quantFilePath?: string, options: LocalAppOptions = {}): LocalServer {
  const env = hubEnv(options);
  if (isMlxModel(model)) {
    return {
      providerId: "mlx-lm",
      servedId: model.id,
      step: {
        title: "Start the MLX LM server (Apple silicon)",
        language: "sh",
        setup: "pip install mlx-lm",
        content: [block(sh`${env}mlx_lm.server --model ${model.id} --port 8080`)],
      },
    };
  }
  const quant = chooseQuant(model, quantFilePath);
  return {
    providerId: "llama-cpp",
    servedId: repoWithTag(model, quant),
    step: {
      title: "Start the llama.cpp server",
      language: "sh",
      setup: "brew install llama.cpp",
      // --jinja renders the model's own chat template, which is what carries the tool definitions.
      content: [block(sh`${env}llama-server ${llamaCppSource(model, quant, options)} --jinja --port 8080`)],
    },
  };
}

export function piSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const server = localServer(model, quantFilePath, options);
  const provider = {
    providers: {
      [server.providerId]: {
        baseUrl: LOCAL_BASE_URL,
        api: "openai-completions",
        apiKey: "none",
        models: [{ id: server.servedId }],
      },
    },
  };
  const setup: Code<"sh">[] = [
    sh`npm install -g @earendil-works/pi-coding-agent`,
    sh`# Add the local server to ~/.pi/agent/models.json (merged with any providers already there):`,
    comment("sh", JSON.stringify(provider)),
  ];
  return [
    server.step,
    {
      title: "Run Pi on the local model",
      language: "sh",
      setup: joinCode("sh", setup).text,
      content: [block(sh`pi --provider ${server.providerId} --model ${server.servedId}`)],
    },
  ];
}

export function hermesAgentSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const server = localServer(model, quantFilePath, options);
  return [
    server.step,
    {
      title: "Point Hermes Agent at the local server",
      language: "sh",
      setup: ["curl -fsSL https://hermes-agent.nousresearch.com/install.sh | bash", "hermes setup"].join(
        "\n",
      ),
      content: [
        block(
          sh`hermes config set model.provider custom`,
          sh`hermes config set model.base_url ${LOCAL_BASE_URL}`,
          sh`hermes config set model.default ${server.servedId}`,
          sh`hermes`,
        ),
      ],
    },
  ];
}

export function openClawSnippets(
  model: ModelData,
  quantFilePath?: string,
  options: LocalAppOptions = {},
): LocalAppSnippet[] {
  const server = localServer(model, quantFilePath, options);
  return [
    server.step,
    {
      title: "Register the local server in OpenClaw and ask it something",
      language: "sh",
      setup: "npm install -g openclaw@latest",
      content: [
        block(
          sh`openclaw onboard --non-interactive --mode local \\`,
          sh`  --auth-choice custom-api-key --custom-compatibility openai \\`,
          sh`  --custom-base-url ${LOCAL_BASE_URL} \\`,
          sh`  --custom-provider-id ${server.providerId} --custom-model-id ${server.servedId} \\`,
          sh`  --custom-text-input --accept-risk --skip-health`,
          sh`openclaw agent --local --agent main --message ${"Hello from a local model"}`,
        ),
      ],
    },
  ];
}
