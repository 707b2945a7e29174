/**
 * One valid call per provider (its main route), for the contract tests that run over every provider:
 * the body a client sends, and the required field whose absence the provider must reject.
 */
export interface ProviderSample {
  provider: string;
  path: string;
  body: Record<string, unknown>;
  /** A field the provider requires: removing it must fail with 4xx. */
  requiredField: string;
  /** The provider's own credential header for a non-hub key. */
  ownAuth: Record<string, string>;
  /** A GET path the provider does not serve (fal-ai takes any path as a model id, so it names a job). */
  unknownPath?: string;
}

const chat = (prefix: string) => ({
  path: `${prefix}/chat/completions`,
  body: { model: "some-model", messages: [{ role: "user", content: "Hello" }] },
  requiredField: "messages",
  ownAuth: { authorization: "Bearer provider-key" },
});

const OPENAI_COMPATIBLE: Record<string, string> = {
  cerebras: "/v1",
  cohere: "/compatibility/v1",
  "fireworks-ai": "/inference/v1",
  hyperbolic: "/v1",
  nebius: "/v1",
  novita: "/v3/openai",
  openai: "/v1",
  sambanova: "/v1",
  together: "/v1",
  groq: "/openai/v1",
  "featherless-ai": "/v1",
  nscale: "/v1",
  ovhcloud: "/v1",
  scaleway: "/v1",
  deepinfra: "/v1/openai",
  baseten: "/v1",
  "zai-org": "/api/paas/v4",
  publicai: "/v1",
};

export const PROVIDER_SAMPLES: ProviderSample[] = [
  ...Object.entries(OPENAI_COMPATIBLE).map(([provider, prefix]) => ({ provider, ...chat(prefix) })),
  {
    provider: "hf-inference",
    path: "/models/deepset/roberta-base-squad2",
    body: { inputs: { question: "Where?", context: "In Paris." } },
    requiredField: "inputs",
    ownAuth: { authorization: "Bearer not-a-hub-token" },
  },
  {
    provider: "fal-ai",
    path: "/fal-ai/flux/schnell",
    body: { prompt: "a cat" },
    requiredField: "prompt",
    ownAuth: { authorization: "Key fal-key" },
    unknownPath: "/fal-ai/flux/requests/no-such-request/status",
  },
  {
    provider: "replicate",
    path: "/v1/models/black-forest-labs/flux-schnell/predictions",
    body: { input: { prompt: "a cat" } },
    requiredField: "input",
    ownAuth: { authorization: "Bearer r8_key" },
  },
  {
    provider: "black-forest-labs",
    path: "/v1/flux-dev",
    body: { prompt: "a cat", width: 256, height: 256 },
    requiredField: "prompt",
    ownAuth: { "x-key": "bfl-key" },
  },
  {
    provider: "wavespeed",
    path: "/api/v3/wavespeed-ai/flux-dev",
    body: { prompt: "a cat" },
    requiredField: "prompt",
    ownAuth: { authorization: "Bearer ws-key" },
  },
];
