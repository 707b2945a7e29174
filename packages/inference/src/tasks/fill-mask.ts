import { hfPipeline } from "../protocols/hf-pipeline.js";
import type { ProtocolTable } from "../providers/types.js";
import type { BaseArgs, FillMaskOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

/** The protocols the providers of this task speak. */
const PROTOCOLS: ProtocolTable = { "hf-pipeline": hfPipeline };

export type FillMaskArgs = BaseArgs & { inputs: string; parameters?: { top_k?: number; targets?: string[] } };

/** fill-mask */
export function fillMask(args: FillMaskArgs, options?: RunOptions): Promise<FillMaskOutput> {
  return runTask("fill-mask", PROTOCOLS, args as FillMaskArgs & JsonObject, options);
}
