import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBlob } from "./encoding.js";
import { ALL_PROTOCOLS } from "./protocols/index.js";
import { providerTaskPairs, taskSpec } from "./providers/index.js";
import * as tasks from "./tasks/all.js";
import { request, streamingRequest } from "./tasks/request.js";
import { TASK_FUNCTIONS } from "./testing/task-functions.js";
import { pipelineOf, TASK_SAMPLES } from "./testing/task-samples.js";
import type { InferenceProvider, InferenceTask } from "./types.js";

/**
 * The contract suite: written once, generated for every (provider, task) pair of the registry, run against
 * provider-sim through the router (hub token) and directly (provider key + base URL override). Adding a
 * provider or a task to the registry adds cases here with no new test code.
 */

const MEDIA_TASKS = new Set([
  "text-to-image",
  "text-to-speech",
  "text-to-audio",
  "image-to-image",
  "text-to-video",
  "image-to-video",
  "image-text-to-image",
  "image-text-to-video",
]);

type Route = "router" | "direct";
const ROUTES: Route[] = ["router", "direct"];
// Cases run concurrently against one sim: every case has its own model, so its requests are its own.
const modelId = (provider: string, task: string, route: Route) => `contract/${provider}-${task}-${route}`;
const providerModelId = (provider: string, task: string, route: Route) => {
  if (provider === "hf-inference") return modelId(provider, task, route);
  // Black Forest Labs model ids are one path segment (`flux-dev`); the others are `owner/name`.
  const name = `${provider}-${task}-${route}-model`;
  return provider === "black-forest-labs" ? name : `contract-org/${name}`;
};

let sim: ProviderSim;
const pairs = providerTaskPairs();

beforeAll(async () => {
  sim = await startProviderSim({
    jobSteps: 1,
    models: pairs.flatMap(({ provider, task }) =>
      ROUTES.map((route) => ({
        id: modelId(provider, task, route),
        pipeline_tag: pipelineOf(task),
        tags: task === "conversational" ? ["conversational"] : [],
        hfInference: provider === "hf-inference",
        inferenceProviderMapping:
          provider === "hf-inference"
            ? {}
            : {
                [provider]: {
                  status: "live" as const,
                  providerId: providerModelId(provider, task, route),
                  task,
                },
              },
      })),
    ),
  });
});
afterAll(async () => {
  await sim.close();
});

function routesFor(provider: InferenceProvider): Route[] {
  if (provider === "hf-inference") return ["router"]; // no host of its own: hub tokens only
  if (provider === "openai") return ["direct"]; // refuses hub tokens
  return ["router", "direct"];
}

function callArgs(provider: InferenceProvider, task: InferenceTask, route: Route) {
  const model =
    provider === "openai"
      ? `openai/${providerModelId(provider, task, route)}`
      : modelId(provider, task, route);
  const args = {
    ...TASK_SAMPLES[task]!(),
    // Together's speech endpoint refuses a body without a voice; only Kokoro ids get one by default.
    ...(provider === "together" && task === "text-to-speech" ? { parameters: { voice: "af_alloy" } } : {}),
    model,
    provider,
    accessToken: route === "router" ? "hf_contract" : `${provider}-key`,
  };
  const options = {
    hubUrl: sim.url,
    routerUrl: sim.url,
    providerBaseUrls: { [provider]: sim.providerUrl(provider) },
    mappingTtlMs: 0,
  };
  return { args, options };
}

const cases = pairs.flatMap(({ provider, task }) =>
  routesFor(provider).map((route) => ({ provider, task, route, name: `${provider} ${task} (${route})` })),
);

describe.concurrent("contract: every provider x task, against provider-sim", () => {
  it("covers every provider of the registry", () => {
    expect(new Set(pairs.map((p) => p.provider)).size).toBe(23);
  });

  for (const { provider, task, route, name } of cases) {
    it(name, async () => {
      const { args, options } = callArgs(provider, task, route);
      const output = await TASK_FUNCTIONS[task]!(args as never, options as never);
      if (MEDIA_TASKS.has(task)) {
        expect(isBlob(output)).toBe(true);
        expect((output as Blob).size).toBeGreaterThan(0);
      } else {
        expect(output).toBeTruthy();
      }
      const sent = sim.requests.filter((r) => r.path.startsWith(`/${provider}/`) && r.method === "POST");
      const id = providerModelId(provider, task, route);
      const mine = sent.filter((r) => r.path.includes(id) || r.bodyText.includes(id));
      expect(mine.length).toBeGreaterThan(0);
      for (const r of mine)
        expect(r.authScheme).toBe(
          route === "router"
            ? "Bearer hf_"
            : provider === "fal-ai"
              ? "Key"
              : provider === "black-forest-labs"
                ? "X-Key"
                : "Bearer",
        );
    });
    if (taskSpec(provider, task, ALL_PROTOCOLS).streams) {
      it(`${name} streaming`, async () => {
        const { args, options } = callArgs(provider, task, route);
        const stream =
          task === "conversational"
            ? tasks.chatCompletionStream(args as never, options)
            : tasks.textGenerationStream(args as never, options);
        const events: unknown[] = [];
        for await (const event of stream) events.push(event);
        expect(events.length).toBeGreaterThan(0);
      });
    }
  }

  it("raw request / streamingRequest return the provider's answer unparsed", async () => {
    const { args, options } = callArgs("together", "conversational", "router");
    const raw = await request<{ choices: unknown[] }>({ ...args, task: "conversational" }, options);
    expect(Array.isArray(raw.choices)).toBe(true);
    const events: unknown[] = [];
    for await (const event of streamingRequest({ ...args, task: "conversational" }, options))
      events.push(event);
    expect(events.length).toBeGreaterThan(0);
  });
});
