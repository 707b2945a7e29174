import { INFERENCE_PROVIDERS, type InferenceProvider, providerTaskProtocol } from "@modelhub/inference";
import type { MappingTask, ProviderMappings } from "../catalogue/mapping-record.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { ModelRef } from "./model-ref.js";
import type { ProviderStats } from "./provider-stats.js";

/** One provider the router may send a call to, with the provider's own id for the model. */
export interface Candidate {
  provider: InferenceProvider;
  providerId: string;
}

export interface SelectionInput {
  ref: ModelRef;
  mappings: ProviderMappings;
  task: MappingTask;
  /** Protocols whose wire format is the OpenAI one this endpoint speaks (the call is passed on as is). */
  protocols: ReadonlySet<string>;
  /** The caller's order of preference (their settings); empty: the hub's default order. */
  preferredProviders: readonly string[];
  stats: ProviderStats;
}

const registryRank = new Map<string, number>(INFERENCE_PROVIDERS.map((provider, index) => [provider, index]));

/**
 * The providers to try, in order: the one the caller named, or every live mapping of the model for the task
 * that speaks this endpoint's protocol, ordered by the policy (the caller's preference order, else the
 * registry's; `:fastest` by measured time to first byte, unmeasured providers after measured ones).
 */
export function selectProviders(input: SelectionInput): Candidate[] {
  const { ref, mappings, task } = input;
  // A named provider that serves the model: its mapping alone is checked (the common `model:provider` call);
  // otherwise every mapping is, for the policy or for the error's list.
  const namedMapping =
    ref.provider && Object.hasOwn(mappings, ref.provider) ? mappings[ref.provider] : undefined;
  if (namedMapping && isUsable(input, ref.provider!, namedMapping)) {
    return [{ provider: ref.provider as InferenceProvider, providerId: namedMapping.providerId }];
  }
  const usable: Candidate[] = [];
  for (const [provider, mapping] of Object.entries(mappings)) {
    if (!isUsable(input, provider, mapping)) continue;
    usable.push({ provider: provider as InferenceProvider, providerId: mapping.providerId });
  }
  if (ref.provider) {
    const named = usable.find((candidate) => candidate.provider === ref.provider);
    if (!named) {
      throw new InvalidInputError(
        `Model ${ref.model} is not served for ${task} by provider ${ref.provider} on this hub` +
          (usable.length ? ` (it is by: ${usable.map((c) => c.provider).join(", ")}).` : "."),
      );
    }
    return [named];
  }
  if (usable.length === 0) {
    throw new NotFoundError(`No provider serves ${ref.model} for ${task} on this hub.`);
  }
  const preference = new Map(input.preferredProviders.map((provider, index) => [provider, index]));
  const rank = (provider: string) =>
    preference.get(provider) ?? preference.size + registryRank.get(provider)!;
  if (ref.policy === "fastest") {
    const speed = (provider: string) => input.stats.headersMs(provider) ?? Number.POSITIVE_INFINITY;
    return usable.sort(
      (a, b) => speed(a.provider) - speed(b.provider) || rank(a.provider) - rank(b.provider),
    );
  }
  return usable.sort((a, b) => rank(a.provider) - rank(b.provider));
}

/** Whether a mapping can take this endpoint's call: the task, a registered provider speaking its protocol. */
function isUsable(input: SelectionInput, provider: string, mapping: ProviderMappings[string]): boolean {
  if (mapping.task !== input.task || !registryRank.has(provider)) return false;
  const protocol = providerTaskProtocol(provider as InferenceProvider, input.task);
  if (!protocol || !input.protocols.has(protocol)) return false;
  // Staging mappings are reachable only by naming the provider (the public hub's rule for testing them).
  return mapping.status === "live" || input.ref.provider === provider;
}
