import { isBinary } from "../encoding.js";
import { ALL_PROTOCOLS } from "../protocols/index.js";
import type { BaseArgs, InferenceTask, JsonObject } from "../types.js";
import { type RunOptions, runStreamTask, runTask } from "./run.js";
import { validateArgs } from "./validate-args.js";

export type RawRequestArgs = BaseArgs & JsonObject & { task?: InferenceTask };

/**
 * Without a task only hf-inference can be addressed: its `/models/{model}` route takes any pipeline's
 * inputs, so a pass-through task spec of that route is used (raw bytes for files, JSON otherwise).
 */
function taskFor(args: RawRequestArgs): InferenceTask {
  if (args.task) return args.task;
  validateArgs({
    ...args,
    provider: args.provider ?? "hf-inference",
    inputs: args.inputs,
    task: undefined,
    model: args.model,
    endpointUrl: args.endpointUrl,
    accessToken: args.accessToken,
  });
  return isBinary(args.inputs) ? "image-classification" : "text-classification";
}

/** A call whose answer is returned as the provider sent it (parsed JSON, or a Blob), not validated. */
export async function request<T = unknown>(args: RawRequestArgs, options?: RunOptions): Promise<T> {
  const { task: _task, ...rest } = args;
  const provider = args.provider ?? (args.task ? undefined : "hf-inference");
  return runTask<T>(
    taskFor(args),
    ALL_PROTOCOLS,
    { ...rest, ...(provider ? { provider } : {}) },
    options,
    true,
  );
}

/** A streaming call whose events are returned as parsed JSON, unvalidated. */
export function streamingRequest<T = unknown>(args: RawRequestArgs, options?: RunOptions): AsyncGenerator<T> {
  const { task, ...rest } = args;
  return runStreamTask<T>(task ?? "text-generation", ALL_PROTOCOLS, rest, options);
}
