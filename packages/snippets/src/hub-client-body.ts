import type { InferenceProvider } from "@modelhub/inference/requests";

/**
 * Where the hub clients (huggingface_hub, @huggingface/inference) put a task's `inputs` in the provider's
 * body, for the calls where that is not always where the provider reads it: both send fal's speech apps
 * `text`, which Kokoro's ignore (they read `prompt`; @modelhub/inference sends each app its own field).
 */
const HUB_CLIENT_INPUT_FIELD: Partial<Record<InferenceProvider, Partial<Record<string, string>>>> = {
  "fal-ai": { "text-to-speech": "text" },
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The body fields the provider reads the input from that the hub clients do not write, or undefined: their
 * snippets pass these themselves (`extra_body=`, `parameters:`), which both clients merge into the body.
 * `providerBody` is the body @modelhub/inference builds for the call, the provider's own field included.
 */
export function hubClientExtraBody(
  provider: InferenceProvider,
  task: string,
  inputs: unknown,
  providerBody: unknown,
): Record<string, unknown> | undefined {
  const clientField = HUB_CLIENT_INPUT_FIELD[provider]?.[task];
  if (!clientField || inputs === undefined || !isObject(providerBody)) return undefined;
  const field = Object.keys(providerBody).find((key) => key !== clientField && providerBody[key] === inputs);
  return field === undefined || clientField in providerBody ? undefined : { [field]: inputs };
}
