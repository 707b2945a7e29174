import { randomBytes } from "node:crypto";
import {
  getProviderConfig,
  INFERENCE_PROVIDERS,
  type InferenceProvider,
  isInferenceProvider,
} from "@modelhub/inference";

/** Where the router sends one provider's calls, and with which credential. */
export interface Upstream {
  /** A hosted provider of the registry, or an own provider's name (own-providers-registry.ts). */
  provider: string;
  /** Base URL the provider path is appended to (no trailing slash). */
  baseUrl: string;
  /** The credential header to send. */
  authHeader: { name: string; value: string };
  /**
   * "provider": the real provider with its key; "provider-sim": the local simulator; "override": a configured
   * URL; "own": an OpenAI-compatible server an administrator added (own-providers-registry.ts).
   */
  target: "provider" | "provider-sim" | "override" | "own";
  /** The credential itself, so that it can be scrubbed from anything the provider sends back. */
  secret: string;
}

export interface UpstreamOptions {
  /** Provider -> its API key. */
  providerKeys?: Partial<Record<string, string>>;
  /** Provider -> base URL replacing the registry's (tests, private gateways). */
  providerBaseUrls?: Partial<Record<string, string>>;
  /** URL of a running provider-sim: providers without a key are sent to `{simUrl}/{provider}`. */
  simUrl?: string;
  /** The credential sent to provider-sim (and to overrides without a key); never a caller's token. */
  simCredential?: string;
}

/** A random credential the hub presents to provider-sim, shaped like a hub token as hf-inference wants. */
export function generateSimCredential(): string {
  return `hf_sim${randomBytes(24).toString("hex")}`;
}

/**
 * Resolves each provider of the inference registry to its upstream: the real provider when a key is
 * configured, a configured base URL when one is given, provider-sim otherwise (or nothing, when no simulator
 * runs: calls to that provider then fail with 503 saying which key to set).
 */
export function createUpstreams(options: UpstreamOptions) {
  const table = new Map<string, Upstream>();
  for (const provider of INFERENCE_PROVIDERS) {
    const config = getProviderConfig(provider);
    const key = options.providerKeys?.[provider];
    const override = options.providerBaseUrls?.[provider];
    const credential = key ?? options.simCredential;
    let baseUrl: string | undefined;
    let target: Upstream["target"] = "provider";
    if (override) {
      baseUrl = override;
      target = "override";
    } else if (key) {
      baseUrl = config.baseUrl;
    } else if (options.simUrl) {
      baseUrl = `${options.simUrl}/${provider}`;
      target = "provider-sim";
    }
    if (!baseUrl || !credential) continue;
    table.set(provider, {
      provider,
      baseUrl: baseUrl.replace(/\/+$/, ""),
      authHeader: {
        name: config.authHeader.name,
        value: config.authHeader.value.replace("<key>", credential),
      },
      target,
      secret: credential,
    });
  }

  return {
    isKnown: (provider: string): provider is InferenceProvider => isInferenceProvider(provider),
    get: (provider: string): Upstream | undefined => table.get(provider),
    /** The environment variable that would configure a provider, for error messages. */
    keyVariable: (provider: InferenceProvider): string => getProviderConfig(provider).apiKeyEnv,
    /** Which providers go where: what the server prints at start-up. */
    summary(): Record<Upstream["target"] | "unavailable", string[]> {
      const summary: Record<Upstream["target"] | "unavailable", string[]> = {
        provider: [],
        "provider-sim": [],
        override: [],
        own: [],
        unavailable: [],
      };
      for (const provider of INFERENCE_PROVIDERS)
        summary[table.get(provider)?.target ?? "unavailable"].push(provider);
      return summary;
    },
    /** Every credential in use, to scrub from logs and responses. */
    secrets: (): string[] => [...new Set([...table.values()].map((upstream) => upstream.secret))],
  };
}

export type Upstreams = ReturnType<typeof createUpstreams>;
