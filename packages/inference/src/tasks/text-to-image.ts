import type { BaseArgs, ImageOutputType, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type TextToImageArgs = BaseArgs & {
  inputs: string;
  parameters?: {
    negative_prompt?: string;
    width?: number;
    height?: number;
    num_inference_steps?: number;
    guidance_scale?: number;
    seed?: number;
    [key: string]: unknown;
  };
};

type Output<O extends ImageOutputType | undefined> = O extends "url" | "dataUrl"
  ? string
  : O extends "json"
    ? Record<string, unknown>
    : Blob;

/**
 * text-to-image. `outputType`: "blob" (default), "url" (the provider's URL, or a data URL when it
 * answers with bytes), "dataUrl", or "json" (the provider's raw answer).
 */
export function textToImage<O extends ImageOutputType | undefined = undefined>(
  args: TextToImageArgs,
  options?: RunOptions & { outputType?: O },
): Promise<Output<O>> {
  return runTask("text-to-image", args as TextToImageArgs & JsonObject, options);
}
