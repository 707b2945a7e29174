import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { isPipelineType, type PipelineType } from "@modelhub/tasks";
import { z } from "zod";
import { InvalidInputError } from "../errors.js";
import { parseInput } from "../http/validate.js";

export const MAPPING_STATUSES = ["live", "staging"] as const;
export type MappingStatus = (typeof MAPPING_STATUSES)[number];

/** How a provider serves a model, in the public hub's `inferenceProviderMapping` shape. */
export interface ProviderMapping {
  status: MappingStatus;
  providerId: string;
  /** A pipeline task, or "conversational" for chat completion (as the public hub's mappings say). */
  task: MappingTask;
  /** `"lora"`: the model is a LoRA adapter the provider applies to a base model it runs (fal-ai). */
  adapter?: MappingAdapter;
  /** The adapter's weights file in the model's repository (`adapter` only). */
  adapterWeightsPath?: string;
}

export const MAPPING_ADAPTERS = ["lora"] as const;
export type MappingAdapter = (typeof MAPPING_ADAPTERS)[number];

export type MappingTask = PipelineType | "conversational";

export function isMappingTask(value: unknown): value is MappingTask {
  return value === "conversational" || isPipelineType(value);
}

/** `{ [provider]: mapping }`, as `expand[]=inferenceProviderMapping` returns it. */
export type ProviderMappings = Record<string, ProviderMapping>;

const REGISTRY_RANK = new Map<string, number>(
  INFERENCE_PROVIDERS.map((provider, index) => [provider, index]),
);

/**
 * The mappings in the order the router tries them for this user: live before staging, then the user's
 * preferred providers in their order, then the hub's default (the provider registry's) order. Clients that
 * pick `provider="auto"` take the first mapping of the model API's answer (@huggingface/inference whatever
 * its status), so this is what makes their choice the router's.
 */
export function inPreferredOrder(mappings: ProviderMappings, preferred: readonly string[]): ProviderMappings {
  const preference = new Map(preferred.map((provider, index) => [provider, index]));
  const rank = (provider: string, mapping: ProviderMapping) =>
    (mapping.status === "live" ? 0 : 1e6) +
    (preference.get(provider) ?? preference.size + (REGISTRY_RANK.get(provider) ?? REGISTRY_RANK.size));
  return Object.fromEntries(
    Object.entries(mappings).sort(([a, left], [b, right]) => rank(a, left) - rank(b, right)),
  );
}

const PROVIDER_NAME = /^[a-z0-9][a-z0-9-]{0,49}$/;
/** A relative file path inside a repository: no absolute path, no `..` segment, no backslash. */
const REPO_FILE_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[^\\\u0000-\u001f]{1,1000}$/;

/** Provider-side model ids look like repo ids, paths or versioned names ("owner/name:tag", "fal-ai/flux/dev"). */
const PROVIDER_MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,255}$/;

export function parseProviderName(provider: unknown, knownProviders: readonly string[] | undefined): string {
  if (typeof provider !== "string" || !PROVIDER_NAME.test(provider)) {
    throw new InvalidInputError(`Invalid provider name ${JSON.stringify(String(provider).slice(0, 60))}.`);
  }
  if (knownProviders && !knownProviders.includes(provider)) {
    throw new InvalidInputError(
      `Unknown provider "${provider}". Known providers: ${knownProviders.join(", ")}.`,
    );
  }
  return provider;
}

/** A provider mapping as the admin API and catalogue files write it (unknown fields are dropped). */
export const providerMappingSchema = z
  .object(
    {
      status: z.enum(MAPPING_STATUSES),
      providerId: z.string().refine((id) => PROVIDER_MODEL_ID.test(id) && !id.includes(".."), {
        error: "must be a provider model id.",
      }),
      task: z.custom<MappingTask>(isMappingTask, { error: 'must be a pipeline task or "conversational".' }),
      adapter: z.enum(MAPPING_ADAPTERS).optional(),
      adapterWeightsPath: z
        .string()
        .regex(REPO_FILE_PATH, { error: "must be a file path in the repository." })
        .optional(),
    },
    { error: "must be an object {status, providerId, task}." },
  )
  .transform(({ status, providerId, task, adapter, adapterWeightsPath }, context): ProviderMapping => {
    if (adapter === undefined && adapterWeightsPath === undefined) return { status, providerId, task };
    if (adapter === undefined) {
      context.addIssue({
        code: "custom",
        path: ["adapter"],
        message: 'must be "lora" with "adapterWeightsPath".',
      });
      return z.NEVER;
    }
    if (adapterWeightsPath === undefined) {
      context.addIssue({
        code: "custom",
        path: ["adapterWeightsPath"],
        message: "is required with a LoRA adapter: the weights file in the repository.",
      });
      return z.NEVER;
    }
    return { status, providerId, task, adapter, adapterWeightsPath };
  });

export function parseProviderMapping(input: unknown): ProviderMapping {
  return parseInput(providerMappingSchema, input, { what: "provider mapping" });
}
