import { afterEach, describe, expect, it } from "vitest";
import { AbortError, ProviderApiError, RoutingError } from "../errors.js";
import { openAiChat } from "../protocols/openai-chat.js";
import { cachedProviderMappings, mappingCache, type ProviderMapping } from "../routing/hub-api.js";
import type { BaseArgs, ChatCompletionInput } from "../types.js";
import { chatCompletion } from "./chat-completion.js";
import { prepare, type RunOptions } from "./prepare.js";
import { routedChatRequest } from "./routed-chat.js";

const HUB = "http://hub.test";
const messages = [{ role: "user" as const, content: "Hello" }];
type Args = BaseArgs & ChatCompletionInput;

/** Any network call is a failure here: both paths must route on the cached mappings alone. */
const noNetwork: typeof fetch = async (input) => {
  throw new Error(`unexpected request to ${String(input)}`);
};

const live = (
  provider: string,
  providerId: string,
  extra: Partial<ProviderMapping> = {},
): ProviderMapping => ({
  provider,
  providerId,
  status: "live",
  task: "conversational",
  ...extra,
});

/** Caches a model's mappings as fetchProviderMappings would have (the key is the hub URL and the model id). */
const cache = (model: string, mappings: ProviderMapping[], hubUrl = HUB) =>
  mappingCache.set(`${hubUrl}\u0000${model}`, mappings, 60_000);

/** Routed chats the fast path takes, across what changes their request. */
const CASES: Array<{ args: Args; options: RunOptions; mappings: ProviderMapping[] }> = [
  // A named provider through the router with a hub token.
  {
    args: { model: "org/m", provider: "together", accessToken: "hf_x", messages, max_tokens: 5 },
    options: {},
    mappings: [live("together", "org/m-turbo")],
  },
  // The provider's own key: straight to the provider, its base URL overridden (trailing slash trimmed).
  {
    args: { model: "org/m", provider: "together", accessToken: "tg-key", messages, temperature: 0 },
    options: { providerBaseUrls: { together: "http://together.test/" } },
    mappings: [live("together", "org/m-turbo")],
  },
  // auto: the first live mapping that serves chat (staging skipped), a router URL with a trailing slash.
  {
    args: { model: "org/m", accessToken: "hf_x", messages, stop: ["x"] },
    options: { routerUrl: "http://router.test/", billTo: "org" },
    mappings: [live("nebius", "n/m", { status: "staging" }), live("groq", "g/m"), live("cohere", "c/m")],
  },
  // auto without a usable mapping: the hub's own inference, the model in the path, not the body.
  {
    args: { model: "org/m", provider: "auto", accessToken: "hf_x", messages },
    options: {},
    mappings: [live("together", "t/m", { task: "text-generation" })],
  },
  // hf-inference with a provider key (direct to its base), no token at all on a custom path provider.
  {
    args: { model: "org/m", provider: "hf-inference", accessToken: "k", messages },
    options: {},
    mappings: [],
  },
  {
    args: { model: "org/m", provider: "cohere", messages, seed: 1 },
    options: {},
    mappings: [live("cohere", "c/m")],
  },
  // A provider with headers of its own, its key, and billing to an organization.
  {
    args: { model: "org/m", provider: "zai-org", accessToken: "zk", messages },
    options: { billTo: "me" },
    mappings: [live("zai-org", "glm-4.5")],
  },
  // A LoRA adapter's mapping (chat ignores the weights' URL), and a staging mapping named explicitly.
  {
    args: { model: "org/m", provider: "fireworks-ai", accessToken: "hf_x", messages },
    options: {},
    mappings: [live("fireworks-ai", "f/m", { adapter: "lora", adapterWeightsPath: "w.safetensors" })],
  },
  {
    args: { model: "org/m", provider: "sambanova", accessToken: "hf_x", messages },
    options: { logger: { warn: () => {} } },
    mappings: [live("sambanova", "s/m", { status: "staging" })],
  },
];

afterEach(() => mappingCache.clear());

describe("routed chat fast path", () => {
  it("sends what the general path would send: URL, headers in order, body bytes, error wording", async () => {
    for (const { args, options, mappings } of CASES) {
      mappingCache.clear();
      cache("org/m", mappings);
      const withHub: RunOptions = { ...options, hubUrl: HUB, fetch: noNetwork };
      const fast = routedChatRequest(args, withHub);
      expect(fast, JSON.stringify(args)).toBeDefined();
      const general = await prepare(
        "conversational",
        { "openai-chat": openAiChat },
        args as Args & Record<string, never>,
        withHub,
        false,
      );
      expect(fast!.url).toBe(general.url);
      expect(Object.entries(fast!.headers)).toEqual(Object.entries(general.headers));
      expect(fast!.body).toBe(general.body);
      expect(fast!.method).toBe(general.method);
      expect(fast!.provider).toBe(general.provider);
      expect(fast!.subject).toBe(general.subject);
      expect(fast!.describeError).toBe(general.describeError);
    }
  });

  it("leaves to the general path what it cannot route from the cache alone", () => {
    const options: RunOptions = { hubUrl: HUB };
    const args: Args = { model: "org/m", provider: "together", messages };
    // A cold cache: the general path fetches the mappings (and caches them).
    expect(routedChatRequest(args, options)).toBeUndefined();
    cache("org/m", [live("together", "t/m"), live("openai", "gpt")]);
    expect(routedChatRequest(args, options)).toBeDefined();
    // Another hub, the cache turned off, no model, a model URL, an endpoint, openai, an unknown provider.
    expect(routedChatRequest(args, { hubUrl: "http://other.test" })).toBeUndefined();
    expect(routedChatRequest(args, { ...options, mappingTtlMs: 0 })).toBeUndefined();
    expect(routedChatRequest({ provider: "together", messages }, options)).toBeUndefined();
    expect(routedChatRequest({ ...args, model: "https://x.y/m" }, options)).toBeUndefined();
    expect(routedChatRequest({ ...args, endpointUrl: "" }, options)).toBeUndefined();
    expect(routedChatRequest({ ...args, provider: "openai", model: "openai/gpt" }, options)).toBeUndefined();
    expect(routedChatRequest({ ...args, provider: "nope" as "together" }, options)).toBeUndefined();
  });

  it("finds each model's mappings on each hub, one after another (the last key is kept)", () => {
    cache("org/a", [live("together", "t/a")]);
    cache("org/b", [live("groq", "g/b")]);
    cache("org/a", [live("cohere", "c/a")], "http://other.test");
    const lookups: Array<[string, string, string | undefined]> = [
      [HUB, "org/a", "t/a"],
      [HUB, "org/a", "t/a"],
      [HUB, "org/b", "g/b"],
      ["http://other.test", "org/a", "c/a"],
      [HUB, "org/a", "t/a"],
      ["http://other.test", "org/b", undefined],
    ];
    for (const [hubUrl, model, providerId] of lookups)
      expect(cachedProviderMappings(hubUrl, model)?.[0]?.providerId).toBe(providerId);
  });

  it("routes, warns and refuses as the general path does", async () => {
    const warnings: string[] = [];
    const options: RunOptions = { hubUrl: HUB, fetch: noNetwork, logger: { warn: (m) => warnings.push(m) } };
    cache("org/m", [live("together", "t/m", { status: "staging" })]);
    routedChatRequest({ model: "org/m", provider: "together", messages }, options);
    expect(warnings).toEqual([
      "Model org/m is in staging mode for provider together. Meant for test purposes only.",
    ]);
    const refused = chatCompletion({ model: "org/m", provider: "groq", messages }, options);
    await expect(refused).rejects.toBeInstanceOf(RoutingError);
    await expect(refused).rejects.toThrow("Model org/m is not supported by provider groq.");
  });

  it("answers with the general path's typed errors: the same 404 wording, an abort", async () => {
    let hubCalls = 0;
    const options: RunOptions = {
      hubUrl: HUB,
      routerUrl: "http://router.test",
      retryOnError: false,
      fetch: async (input) => {
        if (String(input).startsWith(HUB)) {
          hubCalls++;
          return Response.json({
            inferenceProviderMapping: { together: { providerId: "t/m", task: "conversational" } },
          });
        }
        return new Response("Not Found", { status: 404 });
      },
    };
    const args: Args = { model: "org/m", provider: "together", accessToken: "hf_x", messages };
    // The first call finds the cache cold (the general path), the second warm (the fast path).
    const general = await chatCompletion(args, options).catch((e: unknown) => e);
    expect(routedChatRequest(args, options)).toBeDefined();
    const fast = await chatCompletion(args, options).catch((e: unknown) => e);
    expect(hubCalls).toBe(1);
    expect(ProviderApiError.isInstance(fast)).toBe(true);
    expect((fast as Error).message).toBe(
      "Server org/m does not seem to support chat completion. Error: Not Found",
    );
    expect((fast as Error).message).toBe((general as Error).message);
    expect((fast as ProviderApiError).provider).toBe((general as ProviderApiError).provider);
    expect((fast as ProviderApiError).request).toEqual((general as ProviderApiError).request);

    const controller = new AbortController();
    const aborted = chatCompletion(args, {
      ...options,
      signal: controller.signal,
      fetch: (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
        ),
    });
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
  });
});
