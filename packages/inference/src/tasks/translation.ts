import type { BaseArgs, JsonObject, TranslationOutput } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TranslationArgs = BaseArgs & {
  inputs: string | string[];
  parameters?: { src_lang?: string; tgt_lang?: string };
};

/** translation */
export function translation(
  args: TranslationArgs,
  options?: RunOptions,
): Promise<TranslationOutput | TranslationOutput[]> {
  return runTask("translation", args as TranslationArgs & JsonObject, options);
}
