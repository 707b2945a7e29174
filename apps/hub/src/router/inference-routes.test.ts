import { buildRequest, INFERENCE_PROVIDERS, providerTaskPairs } from "@modelhub/inference";
import { simulatedProviders } from "@modelhub/provider-sim";
import { describe, expect, it } from "vitest";
import { InferenceRoutes, NotAnInferenceCallError } from "./inference-routes.js";

const routes = InferenceRoutes.fromClient();

/**
 * provider-sim routes no client of the hub calls for that provider, refused on purpose: the simulator serves
 * the whole OpenAI-compatible surface for every such provider, and job cancellation is not inference.
 */
const NOT_CALLED_BY_CLIENTS = new Set([
  "fal-ai PUT /*app/requests/:id/cancel",
  "replicate POST /v1/predictions/:id/cancel",
  "cohere POST /compatibility/v1/embeddings",
  "fireworks-ai POST /inference/v1/completions",
  "hyperbolic POST /v1/completions",
  "zai-org POST /api/paas/v4/images/generations",
]);

/** A concrete path for a provider-sim route pattern (`:id`, `*model`); BFL's models are FLUX ones. */
const concrete = (provider: string, pattern: string) =>
  pattern
    .replace(/\*[a-z]+/g, "acme/some-model")
    .replace(/:model/g, provider === "black-forest-labs" ? "flux-dev" : "some-model")
    .replace(/:[a-z]+/g, "abc123");

function allows(provider: string, method: string, path: string, search = ""): boolean {
  try {
    routes.check(provider, method, path, search);
    return true;
  } catch (error) {
    if (error instanceof NotAnInferenceCallError) return false;
    throw error;
  }
}

describe("the router's inference routes", () => {
  it("allow every call the hub's client builds, for every provider and task", () => {
    for (const { provider, task } of providerTaskPairs()) {
      for (const providerModelId of [
        "org/model-1",
        "fal-ai/flux/dev",
        "owner/name:0123abcd",
        "flux-pro-1.1",
      ]) {
        if (provider === "black-forest-labs" && !providerModelId.startsWith("flux")) continue;
        if (provider === "wavespeed" && !providerModelId.includes("/")) continue;
        const built = buildRequest({
          provider,
          task,
          providerModelId,
          args: { inputs: "" },
          routerUrl: "http://r",
        });
        const url = new URL(built.url);
        const path = url.pathname.slice(`/${provider}`.length);
        expect(allows(provider, "POST", path, url.search), `${provider} ${task} POST ${path}`).toBe(true);
      }
    }
  });

  it("allow every route provider-sim serves for a provider, but those no client calls", () => {
    const refused: string[] = [];
    for (const provider of simulatedProviders()) {
      if (!(INFERENCE_PROVIDERS as readonly string[]).includes(provider.name)) continue;
      for (const route of provider.routes) {
        const [method, pattern] = route.split(" ") as [string, string];
        if (!allows(provider.name, method, concrete(provider.name, pattern)))
          refused.push(`${provider.name} ${route}`);
      }
    }
    expect(new Set(refused)).toEqual(NOT_CALLED_BY_CLIENTS);
  });

  it("refuse providers' account, file and fine-tuning APIs, and the wrong method", () => {
    for (const [provider, method, path] of [
      ["openai", "POST", "/v1/files"],
      ["openai", "GET", "/v1/organization/admin_api_keys"],
      ["openai", "POST", "/v1/fine_tuning/jobs"],
      ["openai", "GET", "/v1/models"],
      ["openai", "GET", "/v1/chat/completions"],
      ["openai", "POST", "/v1/chat/completions/extra"],
      ["together", "POST", "/v1/fine-tunes"],
      ["replicate", "POST", "/v1/trainings"],
      ["replicate", "GET", "/v1/account"],
      ["black-forest-labs", "POST", "/v1/finetune"],
      ["black-forest-labs", "POST", "/v1/delete_finetune"],
      ["black-forest-labs", "GET", "/v1/credits"],
      ["wavespeed", "POST", "/api/v3/media/upload/binary"],
      ["wavespeed", "POST", "/api/v3/predictions/abc/result"],
      ["wavespeed", "GET", "/api/v3/balance"],
      ["hf-inference", "GET", "/models/org/name"],
    ] as const) {
      expect(allows(provider, method, path), `${provider} ${method} ${path}`).toBe(false);
    }
  });

  it("sends fal.ai's calls only to the queue host its client uses", () => {
    expect(allows("fal-ai", "POST", "/fal-ai/flux/dev", "?_subdomain=queue")).toBe(true);
    expect(allows("fal-ai", "POST", "/fal-ai/flux/dev", "?_subdomain=rest")).toBe(false);
    expect(allows("fal-ai", "POST", "/fal-ai/flux/dev", "?_subdomain=queue&_subdomain=api")).toBe(false);
    expect(allows("together", "POST", "/v1/chat/completions", "?_subdomain=queue")).toBe(false);
  });

  it("names the model of the path, and says what is wrong with a refused call", () => {
    expect(routes.check("hf-inference", "POST", "/models/org/na%6De", "")).toEqual({
      pathModel: "org/name",
      rawBody: true,
      versionInBody: false,
    });
    expect(
      routes.check("fal-ai", "GET", "/fal-ai/flux/requests/r-1/status", "?_subdomain=queue").pathModel,
    ).toBe("fal-ai/flux");
    expect(routes.check("together", "POST", "/v1/chat/completions", "")).toEqual({
      pathModel: null,
      rawBody: false,
      versionInBody: false,
    });
    // Replicate's predictions may name the model by its version, in the body.
    expect(routes.check("replicate", "POST", "/v1/predictions", "").versionInBody).toBe(true);
    expect(routes.check("replicate", "GET", "/v1/predictions/p-1", "").versionInBody).toBe(false);
    expect(() => routes.check("openai", "POST", "/v1/files", "")).toThrow(
      /POST \/router\/openai\/v1\/files is not one of openai's inference calls.*POST \/router\/openai\/v1\/chat\/completions/,
    );
    expect(() => routes.check("openai", "GET", "/v1/chat/completions", "")).toThrow(/as POST, not GET/);
  });
});
