import { INFERENCE_PROVIDERS, type InferenceProvider, providerTaskProtocol } from "@modelhub/inference";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { MappingTask, ProviderMappings } from "../store/mapping-record.js";
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
  const usable: Candidate[] = [];
  for (const [provider, mapping] of Object.entries(mappings)) {
    if (mapping.task !== task || !registryRank.has(provider)) continue;
    const protocol = providerTaskProtocol(provider as InferenceProvider, task);
    if (!protocol || !input.protocols.has(protocol)) continue;
    // Staging mappings are reachable only by naming the provider (the public hub's rule for testing them).
    if (mapping.status !== "live" && ref.provider !== provider) continue;
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
