import type { ProviderDefinition, Route } from "../context.js";
import { type OpenAiCompatibleOptions, openAiCompatibleRoutes } from "../protocols/openai-compatible.js";
import { novitaVideoRoutes } from "./novita-video.js";
import { togetherVideoRoutes } from "./together-video.js";
import { zaiImageRoutes } from "./zai-images.js";

interface CompatibleProvider extends OpenAiCompatibleOptions {
  name: string;
  realBaseUrl: string;
  /** Routes beyond the OpenAI protocol (Novita's video jobs). */
  extraRoutes?: Route[];
}

/**
 * Providers that speak the OpenAI wire protocol. `prefix` is the path under the provider's host (and so under
 * `{routerUrl}/{provider}`) before `/chat/completions`; recorded paths where the recording has them, the
 * providers' public API references otherwise.
 */
const COMPATIBLE: CompatibleProvider[] = [
  { name: "cerebras", realBaseUrl: "https://api.cerebras.ai", prefix: "/v1" },
  { name: "cohere", realBaseUrl: "https://api.cohere.com", prefix: "/compatibility/v1", embeddings: true },
  {
    name: "fireworks-ai",
    realBaseUrl: "https://api.fireworks.ai",
    prefix: "/inference/v1",
    completions: true,
  },
  {
    name: "hyperbolic",
    realBaseUrl: "https://api.hyperbolic.xyz",
    prefix: "/v1",
    completions: true,
    images: "hyperbolic",
    missingField: "fastapi",
  },
  {
    name: "nebius",
    realBaseUrl: "https://api.studio.nebius.ai",
    prefix: "/v1",
    completions: true,
    images: "openai",
    embeddings: true,
  },
  {
    name: "novita",
    realBaseUrl: "https://api.novita.ai",
    prefix: "/v3/openai",
    completions: true,
    extraRoutes: novitaVideoRoutes,
  },
  { name: "openai", realBaseUrl: "https://api.openai.com", prefix: "/v1" },
  { name: "sambanova", realBaseUrl: "https://api.sambanova.ai", prefix: "/v1", embeddings: true },
  {
    name: "together",
    realBaseUrl: "https://api.together.xyz",
    prefix: "/v1",
    completions: true,
    images: "openai",
    embeddings: true,
    speech: "voice-required",
    missingField: "together",
    extraRoutes: togetherVideoRoutes,
  },
  { name: "groq", realBaseUrl: "https://api.groq.com", prefix: "/openai/v1" },
  { name: "featherless-ai", realBaseUrl: "https://api.featherless.ai", prefix: "/v1", completions: true },
  { name: "nscale", realBaseUrl: "https://inference.api.nscale.com", prefix: "/v1", images: "openai" },
  {
    name: "ovhcloud",
    realBaseUrl: "https://oai.endpoints.kepler.ai.cloud.ovh.net",
    prefix: "/v1",
    completions: true,
  },
  {
    name: "scaleway",
    realBaseUrl: "https://api.scaleway.ai",
    prefix: "/v1",
    completions: true,
    embeddings: true,
  },
  {
    name: "deepinfra",
    realBaseUrl: "https://api.deepinfra.com",
    prefix: "/v1/openai",
    completions: true,
    images: "openai",
    embeddings: true,
    speech: "voice-optional",
  },
  { name: "baseten", realBaseUrl: "https://inference.baseten.co", prefix: "/v1" },
  {
    name: "zai-org",
    realBaseUrl: "https://api.z.ai",
    prefix: "/api/paas/v4",
    images: "openai",
    extraRoutes: zaiImageRoutes,
  },
  { name: "publicai", realBaseUrl: "https://api.publicai.co", prefix: "/v1" },
];

export const openAiCompatibleProviders: ProviderDefinition[] = COMPATIBLE.map(
  ({ name, realBaseUrl, extraRoutes = [], ...options }) => ({
    name,
    realBaseUrl,
    auth: "bearer",
    errors: "openai",
    routes: [...openAiCompatibleRoutes(options), ...extraRoutes],
  }),
);
