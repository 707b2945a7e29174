import type { InferenceTask } from "../base-types.js";
import { RoutingError } from "../errors.js";
import { baseten } from "./baseten.js";
import { blackForestLabs } from "./black-forest-labs.js";
import { cerebras } from "./cerebras.js";
import { cohere } from "./cohere.js";
import { deepinfra } from "./deepinfra.js";
import { falAi } from "./fal-ai.js";
import { featherlessAi } from "./featherless-ai.js";
import { fireworksAi } from "./fireworks-ai.js";
import { groq } from "./groq.js";
import { hfInference } from "./hf-inference.js";
import { hyperbolic } from "./hyperbolic.js";
import { nebius } from "./nebius.js";
import { novita } from "./novita.js";
import { nscale } from "./nscale.js";
import { openai } from "./openai.js";
import { ovhcloud } from "./ovhcloud.js";
import { publicai } from "./publicai.js";
import { replicate } from "./replicate.js";
import { sambanova } from "./sambanova.js";
import { scaleway } from "./scaleway.js";
import { together } from "./together.js";
import type { ProtocolFactory, ProtocolTable, ProviderConfig, TaskSpec } from "./types.js";
import { wavespeed } from "./wavespeed.js";
import { zaiOrg } from "./zai-org.js";

/**
 * The registry, and the only list of providers: provider id -> display name, base URL, auth, tasks served
 * (with their body / response transforms). The `InferenceProvider` type, `INFERENCE_PROVIDERS`, the hub's
 * key variables, the snippets' tables and the web app's labels are all derived from it: adding a provider
 * is its file plus one line here.
 */
const REGISTRY = {
  "black-forest-labs": blackForestLabs,
  cerebras,
  cohere,
  "fal-ai": falAi,
  "fireworks-ai": fireworksAi,
  "hf-inference": hfInference,
  hyperbolic,
  nebius,
  novita,
  openai,
  replicate,
  sambanova,
  together,
  groq,
  "featherless-ai": featherlessAi,
  nscale,
  ovhcloud,
  scaleway,
  deepinfra,
  baseten,
  wavespeed,
  "zai-org": zaiOrg,
  publicai,
} as const satisfies Record<string, ProviderConfig>;

export type InferenceProvider = keyof typeof REGISTRY;
export const PROVIDERS: Readonly<Record<InferenceProvider, ProviderConfig>> = REGISTRY;
/** Every provider id, in the registry's order (the hub's default order when a model has several). */
export const INFERENCE_PROVIDERS = Object.freeze(Object.keys(REGISTRY)) as readonly InferenceProvider[];

/** The name to show for a provider (its id when it is not one of the registry's). */
export function providerDisplayName(provider: string): string {
  return isInferenceProvider(provider) ? PROVIDERS[provider].displayName : provider;
}

/**
 * Every provider's display name, by id. Its calls are marked pure so that a bundle which never reads it (a
 * chat-only one) drops it: a bundler keeps a top-level call it cannot prove free of side effects.
 */
export const PROVIDER_DISPLAY_NAMES: Readonly<Record<InferenceProvider, string>> =
  /* @__PURE__ */ Object.freeze(
    /* @__PURE__ */ Object.fromEntries(
      /* @__PURE__ */ INFERENCE_PROVIDERS.map((id) => [id, PROVIDERS[id].displayName]),
    ) as Record<InferenceProvider, string>,
  );

export function isInferenceProvider(value: unknown): value is InferenceProvider {
  return typeof value === "string" && Object.hasOwn(PROVIDERS, value);
}

/** A provider's public description (no hooks): what snippets and UIs need. */
export interface ProviderInfo {
  id: InferenceProvider;
  displayName: string;
  baseUrl: string;
  apiKeyEnv: string;
  tasks: InferenceTask[];
  /** Header used with the provider's own key, with `<key>` standing for the key. */
  authHeader: { name: string; value: string };
}

export function getProviderConfig(provider: InferenceProvider): ProviderInfo {
  const config = providerConfig(provider);
  const [name, value] = authHeader(config, "<key>");
  return {
    id: provider,
    displayName: config.displayName,
    baseUrl: config.baseUrl,
    apiKeyEnv: config.apiKeyEnv,
    tasks: Object.keys(config.tasks) as InferenceTask[],
    authHeader: { name, value },
  };
}

/** The protocol a provider serves a task with (`openai-chat`, `fal-queue`...), or undefined. */
export function providerTaskProtocol(provider: InferenceProvider, task: InferenceTask): string | undefined {
  return isInferenceProvider(provider) ? PROVIDERS[provider].tasks[task]?.protocol : undefined;
}

export function providerTaskSupported(provider: InferenceProvider, task: InferenceTask): boolean {
  return isInferenceProvider(provider) && Object.hasOwn(PROVIDERS[provider].tasks, task);
}

/** Every (provider, task) pair the client serves: what the contract suite iterates over. */
export function providerTaskPairs(): Array<{ provider: InferenceProvider; task: InferenceTask }> {
  return INFERENCE_PROVIDERS.flatMap((provider) =>
    (Object.keys(PROVIDERS[provider].tasks) as InferenceTask[]).map((task) => ({ provider, task })),
  );
}

export function providerConfig(provider: InferenceProvider): ProviderConfig {
  if (!isInferenceProvider(provider)) {
    throw new RoutingError(
      `Unknown inference provider "${provider}". Known providers: ${INFERENCE_PROVIDERS.join(", ")}`,
    );
  }
  return PROVIDERS[provider];
}

/** The header carrying a provider's own key. */
export function authHeader(config: ProviderConfig, key: string): [string, string] {
  const auth = config.auth ?? { header: "Authorization", scheme: "Bearer" };
  return [auth.header, auth.scheme ? `${auth.scheme} ${key}` : key];
}

const specCache = new WeakMap<object, TaskSpec>();

/**
 * The hooks for one (provider, task): the route's protocol built from the given table. Task functions pass
 * only the protocols their task uses; a route whose protocol is missing there is a bug in this package.
 */
export function taskSpec(
  provider: InferenceProvider,
  task: InferenceTask,
  protocols: ProtocolTable,
): TaskSpec {
  const route = providerConfig(provider).tasks[task];
  if (!route) {
    const served = Object.keys(PROVIDERS[provider].tasks).join(", ");
    throw new RoutingError(`Task "${task}" is not supported by provider ${provider}. It serves: ${served}`);
  }
  const cached = specCache.get(route);
  if (cached) return cached;
  // The table maps each protocol to its own factory, so the route fits the factory found for it.
  const factory = protocols[route.protocol] as ProtocolFactory | undefined;
  if (!factory) throw new RoutingError(`Protocol ${route.protocol} is not available for task ${task}`);
  const spec = factory(route as never, task);
  specCache.set(route, spec);
  return spec;
}
