import { isBlob } from "../encoding.js";
import { InputError } from "../errors.js";
import type { InferenceTask, ProviderChoice } from "../types.js";

// Spec §5 names fal-ai, novita and replicate; Together and WaveSpeed serve it since (both hub clients call them).
const TEXT_TO_VIDEO_PROVIDERS = ["fal-ai", "novita", "replicate", "together", "wavespeed"];
/** Content types fal.ai accepts for speech recognition (spec §5). */
export const FAL_AUDIO_CONTENT_TYPES = ["audio/mpeg", "audio/mp4", "audio/wav", "audio/x-wav"];

export interface ArgsToValidate {
  task: InferenceTask | undefined;
  model: string | undefined;
  provider: ProviderChoice;
  endpointUrl: string | undefined;
  accessToken: string | undefined;
  inputs: unknown;
}

/** The client's input rules (spec §5), checked before any network call. */
export function validateArgs(a: ArgsToValidate): void {
  if (a.model && (a.model.startsWith("https://") || a.model.startsWith("http://"))) {
    throw new InputError("Model URLs are not supported as model ids. Use the endpointUrl option instead.");
  }
  if (a.endpointUrl && a.provider !== "hf-inference" && a.provider !== "auto") {
    throw new InputError("Cannot use endpointUrl with a third-party provider.");
  }
  if (!a.model && !a.task && !a.endpointUrl) {
    throw new InputError("No model provided, and no task has been specified.");
  }
  if (!a.task && a.provider !== "hf-inference" && !a.endpointUrl) {
    throw new InputError(`Task must be specified when using a third-party provider (${a.provider}).`);
  }
  if (a.provider === "openai") {
    if (!a.model?.startsWith("openai/")) {
      throw new InputError(
        "OpenAI only supports models prefixed by the provider name, e.g. openai/gpt-4o-mini",
      );
    }
    if (a.task !== "conversational") throw new InputError("OpenAI only supports chat completion.");
    if (a.accessToken?.startsWith("hf_")) {
      throw new InputError("OpenAI does not accept hub tokens (hf_...): use an OpenAI API key.");
    }
  }
  if (a.task === "text-to-video" && !TEXT_TO_VIDEO_PROVIDERS.includes(a.provider) && a.provider !== "auto") {
    throw new InputError(`Text-to-video is supported only for ${TEXT_TO_VIDEO_PROVIDERS.join(", ")}.`);
  }
  if (a.provider === "fal-ai" && a.task === "automatic-speech-recognition") {
    const type = isBlob(a.inputs) ? a.inputs.type : undefined;
    if (!type || !FAL_AUDIO_CONTENT_TYPES.includes(type)) {
      throw new InputError(
        `fal-ai speech recognition needs a Blob of type ${FAL_AUDIO_CONTENT_TYPES.join(", ")}; got ${type ?? typeof a.inputs}.`,
      );
    }
  }
}
