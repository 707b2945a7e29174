import type { ModelData } from "../model-data.js";
import { hermesAgentSnippets, openClawSnippets, piSnippets } from "./agents.js";
import {
  atomicChatLink,
  backyardLink,
  diffusionBeeLink,
  drawThingsLink,
  invokeLink,
  janLink,
  jellyboxLink,
  joyFusionLink,
  lmStudioLink,
  mstyLink,
  recurseChatLink,
  sanctumLink,
  unslothLink,
} from "./deeplinks.js";
import {
  hasLlamafile,
  isDiffusersImageModel,
  isDiffusersSafetensorsImageModel,
  isGgufModel,
  isLocalToolCallingModel,
  isMlxModel,
  isRyzenAiModel,
  isServableLlm,
  isTextGenerationLike,
} from "./model-traits.js";
import {
  dockerModelRunnerSnippets,
  lemonadeSnippets,
  llamaCppSnippets,
  llamafileSnippets,
  localAiSnippets,
  mlxLmSnippets,
  nodeLlamaCppSnippets,
  ollamaSnippets,
  sglangSnippets,
  tgiSnippets,
  vllmSnippets,
} from "./snippets.js";
import type { LocalApp } from "./types.js";

export type { GgufQuantization } from "./gguf-files.js";
export { defaultGgufQuantization, hasGgufFiles, isGgufFile, listGgufQuantizations } from "./gguf-files.js";
export { downloadFromHub } from "./snippets.js";
export type {
  DeeplinkLocalApp,
  LocalApp,
  LocalAppOptions,
  LocalAppSnippet,
  SnippetLocalApp,
} from "./types.js";

const ggufChat = (model: ModelData): boolean => isGgufModel(model) && isTextGenerationLike(model);

/** Every local app, keyed by a stable id; the order is the order of the "Use this model" menu. */
export const LOCAL_APPS = {
  "llama.cpp": {
    kind: "snippet",
    prettyLabel: "llama.cpp",
    docsUrl: "https://github.com/ggml-org/llama.cpp",
    mainTask: "text-generation",
    displayOnModelPage: isGgufModel,
    snippet: llamaCppSnippets,
  },
  ollama: {
    kind: "snippet",
    prettyLabel: "Ollama",
    docsUrl: "https://ollama.com",
    mainTask: "text-generation",
    displayOnModelPage: isGgufModel,
    snippet: ollamaSnippets,
  },
  lmstudio: {
    kind: "deeplink",
    prettyLabel: "LM Studio",
    docsUrl: "https://lmstudio.ai",
    mainTask: "text-generation",
    displayOnModelPage: (model) => (isGgufModel(model) || isMlxModel(model)) && isTextGenerationLike(model),
    deeplink: lmStudioLink,
  },
  jan: {
    kind: "deeplink",
    prettyLabel: "Jan",
    docsUrl: "https://jan.ai",
    mainTask: "text-generation",
    displayOnModelPage: ggufChat,
    deeplink: janLink,
  },
  vllm: {
    kind: "snippet",
    prettyLabel: "vLLM",
    docsUrl: "https://docs.vllm.ai",
    mainTask: "text-generation",
    displayOnModelPage: isServableLlm,
    snippet: vllmSnippets,
  },
  sglang: {
    kind: "snippet",
    prettyLabel: "SGLang",
    docsUrl: "https://docs.sglang.ai",
    mainTask: "text-generation",
    displayOnModelPage: isServableLlm,
    snippet: sglangSnippets,
  },
  llamafile: {
    kind: "snippet",
    prettyLabel: "llamafile",
    docsUrl: "https://github.com/Mozilla-Ocho/llamafile",
    mainTask: "text-generation",
    displayOnModelPage: (model) => hasLlamafile(model) || ggufChat(model),
    snippet: llamafileSnippets,
  },
  "mlx-lm": {
    kind: "snippet",
    prettyLabel: "MLX LM",
    docsUrl: "https://github.com/ml-explore/mlx-lm",
    mainTask: "text-generation",
    macOSOnly: true,
    displayOnModelPage: (model) =>
      isMlxModel(model) && (model.pipeline_tag === undefined || model.pipeline_tag === "text-generation"),
    snippet: mlxLmSnippets,
  },
  "docker-model-runner": {
    kind: "snippet",
    prettyLabel: "Docker Model Runner",
    docsUrl: "https://docs.docker.com/ai/model-runner/",
    mainTask: "text-generation",
    displayOnModelPage: isGgufModel,
    snippet: dockerModelRunnerSnippets,
  },
  "node-llama-cpp": {
    kind: "snippet",
    prettyLabel: "node-llama-cpp",
    docsUrl: "https://node-llama-cpp.withcat.ai",
    mainTask: "text-generation",
    displayOnModelPage: ggufChat,
    snippet: nodeLlamaCppSnippets,
  },
  localai: {
    kind: "snippet",
    prettyLabel: "LocalAI",
    docsUrl: "https://localai.io",
    mainTask: "text-generation",
    displayOnModelPage: isGgufModel,
    snippet: localAiSnippets,
  },
  msty: {
    kind: "deeplink",
    prettyLabel: "Msty",
    docsUrl: "https://msty.app",
    mainTask: "text-generation",
    displayOnModelPage: ggufChat,
    deeplink: mstyLink,
  },
  recursechat: {
    kind: "deeplink",
    prettyLabel: "RecurseChat",
    docsUrl: "https://recurse.chat",
    mainTask: "text-generation",
    macOSOnly: true,
    displayOnModelPage: ggufChat,
    deeplink: recurseChatLink,
  },
  drawthings: {
    kind: "deeplink",
    prettyLabel: "Draw Things",
    docsUrl: "https://drawthings.ai",
    mainTask: "text-to-image",
    macOSOnly: true,
    displayOnModelPage: isDiffusersImageModel,
    deeplink: drawThingsLink,
  },
  diffusionbee: {
    kind: "deeplink",
    prettyLabel: "DiffusionBee",
    docsUrl: "https://diffusionbee.com",
    mainTask: "text-to-image",
    macOSOnly: true,
    displayOnModelPage: (model) =>
      model.library_name === "diffusers" && model.pipeline_tag === "text-to-image",
    deeplink: diffusionBeeLink,
  },
  invoke: {
    kind: "deeplink",
    prettyLabel: "Invoke",
    docsUrl: "https://github.com/invoke-ai/InvokeAI",
    mainTask: "text-to-image",
    displayOnModelPage: (model) =>
      model.library_name === "diffusers" && model.pipeline_tag === "text-to-image",
    deeplink: invokeLink,
  },
  tgi: {
    kind: "snippet",
    prettyLabel: "TGI",
    docsUrl: "https://huggingface.co/docs/text-generation-inference/",
    mainTask: "text-generation",
    // Repositories that declare TGI support carry its tag.
    displayOnModelPage: (model) =>
      model.tags.includes("text-generation-inference") && isTextGenerationLike(model),
    snippet: tgiSnippets,
  },
  unsloth: {
    kind: "deeplink",
    prettyLabel: "Unsloth Desktop",
    docsUrl: "https://docs.unsloth.ai",
    mainTask: "text-generation",
    displayOnModelPage: (model) => model.tags.includes("unsloth") || ggufChat(model),
    deeplink: unslothLink,
  },
  lemonade: {
    kind: "snippet",
    prettyLabel: "Lemonade",
    docsUrl: "https://lemonade-server.ai",
    mainTask: "text-generation",
    displayOnModelPage: (model) => ggufChat(model) || isRyzenAiModel(model),
    snippet: lemonadeSnippets,
  },
  "atomic-chat": {
    kind: "deeplink",
    prettyLabel: "Atomic Chat",
    docsUrl: "https://atomic.chat",
    mainTask: "text-generation",
    displayOnModelPage: (model) => (isGgufModel(model) || isMlxModel(model)) && isTextGenerationLike(model),
    deeplink: atomicChatLink,
  },
  backyard: {
    kind: "deeplink",
    prettyLabel: "Backyard AI",
    docsUrl: "https://backyard.ai",
    mainTask: "text-generation",
    displayOnModelPage: ggufChat,
    deeplink: backyardLink,
  },
  sanctum: {
    kind: "deeplink",
    prettyLabel: "Sanctum",
    docsUrl: "https://sanctum.ai",
    mainTask: "text-generation",
    displayOnModelPage: ggufChat,
    deeplink: sanctumLink,
  },
  jellybox: {
    kind: "deeplink",
    prettyLabel: "Jellybox",
    docsUrl: "https://jellybox.com",
    mainTask: "text-generation",
    displayOnModelPage: (model) => ggufChat(model) || isDiffusersSafetensorsImageModel(model),
    deeplink: jellyboxLink,
  },
  joyfusion: {
    kind: "deeplink",
    prettyLabel: "JoyFusion",
    docsUrl: "https://joyfusion.app",
    mainTask: "text-to-image",
    macOSOnly: true,
    // Core ML conversions published for JoyFusion carry both tags.
    displayOnModelPage: (model) =>
      model.tags.includes("coreml") &&
      model.tags.includes("joyfusion") &&
      model.pipeline_tag === "text-to-image",
    deeplink: joyFusionLink,
  },
  pi: {
    kind: "snippet",
    prettyLabel: "Pi",
    docsUrl: "https://github.com/earendil-works/pi",
    mainTask: "text-generation",
    displayOnModelPage: isLocalToolCallingModel,
    snippet: piSnippets,
  },
  "hermes-agent": {
    kind: "snippet",
    prettyLabel: "Hermes Agent",
    docsUrl: "https://hermes-agent.nousresearch.com",
    mainTask: "text-generation",
    displayOnModelPage: isLocalToolCallingModel,
    snippet: hermesAgentSnippets,
  },
  openclaw: {
    kind: "snippet",
    prettyLabel: "OpenClaw",
    docsUrl: "https://github.com/openclaw/openclaw",
    mainTask: "text-generation",
    displayOnModelPage: isLocalToolCallingModel,
    snippet: openClawSnippets,
  },
} as const satisfies Record<string, LocalApp>;

export type LocalAppKey = keyof typeof LOCAL_APPS;
export const LOCAL_APP_KEYS = Object.keys(LOCAL_APPS) as LocalAppKey[];

/** The apps that can run a model, in menu order. */
export function getLocalAppsForModel(model: ModelData): Array<{ key: LocalAppKey; app: LocalApp }> {
  return LOCAL_APP_KEYS.map((key) => ({ key, app: LOCAL_APPS[key] as LocalApp })).filter(({ app }) =>
    app.displayOnModelPage(model),
  );
}
