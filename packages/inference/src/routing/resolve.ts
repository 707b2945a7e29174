import { RoutingError } from "../errors.js";
import type { CallContext } from "../http/call-context.js";
import { defaultLogger } from "../logger.js";
import { isInferenceProvider, providerTaskSupported } from "../providers/index.js";
import type { InferenceProvider, InferenceTask, Logger, ProviderChoice } from "../types.js";
import { tokenKind } from "./build-request.js";
import { fetchDefaultModel, fetchProviderMappings, type HubAccess, type ProviderMapping } from "./hub-api.js";

export interface Resolved {
  provider: InferenceProvider;
  model: string | undefined;
  providerModelId: string | undefined;
  /** The mapping names a LoRA adapter: where its weights are on the hub. */
  loraWeightsUrl?: string;
}

export interface ResolveParams {
  task: InferenceTask;
  model: string | undefined;
  provider: ProviderChoice;
  endpointUrl: string | undefined;
  accessToken: string | undefined;
  hubUrl: string;
  mappingTtlMs: number;
  logger: Logger | undefined;
}

/** Picks the provider and the provider's model id (hub mapping, cached), or the task's default model. */
export async function resolveModel(call: CallContext, params: ResolveParams): Promise<Resolved> {
  const { task, endpointUrl } = params;
  if (endpointUrl) return { provider: "hf-inference", model: params.model, providerModelId: params.model };
  const hub: HubAccess = {
    hubUrl: params.hubUrl,
    hubToken: tokenKind(params.accessToken) === "hub" ? params.accessToken : undefined,
  };
  const model = params.model ?? (await fetchDefaultModel(call, hub, task));
  if (params.provider === "openai") {
    // OpenAI models are named "openai/<model>" and need no hub mapping.
    return { provider: "openai", model, providerModelId: model.slice("openai/".length) };
  }
  const mappings = await fetchProviderMappings(call, hub, model, params.mappingTtlMs);
  return chooseMapping(mappings, model, params);
}

/**
 * The provider and its model id from a model's hub mappings (no I/O): the first live mapping that serves
 * the task for `auto`, else the named provider's. Shared with the routed chat fast path, which calls it on
 * mappings from the cache (tasks/routed-chat.ts), so both paths route, warn and refuse alike.
 */
export function chooseMapping(
  mappings: readonly ProviderMapping[],
  model: string,
  params: Pick<ResolveParams, "task" | "provider" | "hubUrl" | "logger">,
): Resolved {
  const { task } = params;
  let provider: InferenceProvider;
  if (params.provider === "auto") {
    const usable = mappings.find(
      (m) =>
        m.status !== "staging" &&
        isInferenceProvider(m.provider) &&
        m.task === task &&
        providerTaskSupported(m.provider, task),
    );
    if (!usable) {
      // No third-party mapping: the hub's own serverless inference serves hub models directly.
      if (providerTaskSupported("hf-inference", task))
        return { provider: "hf-inference", model, providerModelId: model };
      throw new RoutingError(`No live inference provider serves model ${model} for task ${task}`);
    }
    provider = usable.provider as InferenceProvider;
  } else {
    provider = params.provider;
  }

  const mapping = mappings.find((m) => m.provider === provider);
  if (!mapping) {
    if (provider === "hf-inference") return { provider, model, providerModelId: model };
    throw new RoutingError(`Model ${model} is not supported by provider ${provider}.`);
  }
  if (mapping.task !== task) {
    throw new RoutingError(
      `Model ${model} is not supported for task ${task} and provider ${provider}. Supported task: ${mapping.task}.`,
    );
  }
  if (mapping.status === "staging") {
    (params.logger ?? defaultLogger).warn(
      `Model ${model} is in staging mode for provider ${provider}. Meant for test purposes only.`,
    );
  }
  const resolved: Resolved = { provider, model, providerModelId: mapping.providerId };
  if (mapping.adapter === "lora" && mapping.adapterWeightsPath) {
    resolved.loraWeightsUrl = loraWeightsUrl(params.hubUrl, model, mapping.adapterWeightsPath);
  }
  return resolved;
}

/** `{hub}/{model}/resolve/main/{path}`: a file of the adapter's repository, as providers download it. */
export function loraWeightsUrl(hubUrl: string, model: string, weightsPath: string): string {
  const path = weightsPath.split("/").map(encodeURIComponent).join("/");
  return `${hubUrl.replace(/\/+$/, "")}/${model}/resolve/main/${path}`;
}
