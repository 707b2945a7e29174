import type { BaseArgs, FeatureExtractionOutput, JsonObject } from "../types.js";
import { type RunOptions, runTask } from "./run.js";

export type FeatureExtractionArgs = BaseArgs & {
  inputs: string | string[];
  parameters?: { normalize?: boolean; truncate?: boolean };
};

/** feature-extraction */
export function featureExtraction(
  args: FeatureExtractionArgs,
  options?: RunOptions,
): Promise<FeatureExtractionOutput> {
  return runTask("feature-extraction", args as FeatureExtractionArgs & JsonObject, options);
}
