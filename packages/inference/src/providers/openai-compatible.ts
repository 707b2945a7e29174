import { openAiChat, openAiCompletions } from "../protocols/openai-chat.js";
import type { ProviderConfig } from "./types.js";

/** Most providers are an OpenAI-compatible chat (and optionally completions) API at some path. */
export function openAiCompatible(
  config: Omit<ProviderConfig, "tasks"> & {
    chatPath?: string;
    completionsPath?: string;
    tasks?: ProviderConfig["tasks"];
  },
): ProviderConfig {
  const { chatPath, completionsPath, tasks, ...rest } = config;
  return {
    ...rest,
    tasks: {
      conversational: openAiChat(chatPath),
      ...(completionsPath ? { "text-generation": openAiCompletions(completionsPath) } : {}),
      ...tasks,
    },
  };
}
