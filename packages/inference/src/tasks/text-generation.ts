import { hfPipeline } from "../protocols/hf-pipeline.js";
import { openAiCompletions, textGenerationViaChat } from "../protocols/openai-chat.js";
import type { ProtocolTable } from "../providers/types.js";
import type {
  BaseArgs,
  JsonObject,
  TextGenerationInput,
  TextGenerationOutput,
  TextGenerationStreamOutput,
} from "../types.js";
import { type RunOptions, runStreamTask, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = {
  "openai-completions": openAiCompletions,
  "chat-text-generation": textGenerationViaChat,
  "hf-pipeline": hfPipeline,
};

export type TextGenerationArgs = BaseArgs & TextGenerationInput;

/** text-generation */
export function textGeneration(
  args: TextGenerationArgs,
  options?: RunOptions,
): Promise<TextGenerationOutput> {
  return runTask("text-generation", PROTOCOLS, args as TextGenerationArgs & JsonObject, options);
}

/** Text generation as server-sent events (token by token). */
export function textGenerationStream(
  args: TextGenerationArgs,
  options?: RunOptions,
): AsyncGenerator<TextGenerationStreamOutput> {
  return runStreamTask("text-generation", PROTOCOLS, args as TextGenerationArgs & JsonObject, options);
}
