import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, JsonObject, TranslationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type TranslationArgs = BaseArgs & {
  inputs: string | string[];
  parameters?: { src_lang?: string; tgt_lang?: string };
};

/** translation */
export function translation(
  args: TranslationArgs,
  options?: RunOptions,
): Promise<TranslationOutput | TranslationOutput[]> {
  return runTask("translation", PROTOCOLS, args as TranslationArgs & JsonObject, options);
}
