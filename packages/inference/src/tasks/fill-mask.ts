import type { BaseArgs, FillMaskOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type FillMaskArgs = BaseArgs & { inputs: string; parameters?: { top_k?: number; targets?: string[] } };

/** fill-mask */
export function fillMask(args: FillMaskArgs, options?: RunOptions): Promise<FillMaskOutput> {
  return runTask("fill-mask", args as FillMaskArgs & JsonObject, options);
}
