import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InferenceClient } from "./client.js";

let sim: ProviderSim;
const messages = [{ role: "user" as const, content: "Hi" }];

beforeAll(async () => {
  sim = await startProviderSim({
    models: [
      {
        id: "client/chat",
        pipeline_tag: "text-generation",
        tags: ["conversational"],
        hfInference: false,
        inferenceProviderMapping: {
          together: { status: "live", providerId: "client/chat-turbo", task: "conversational" },
        },
      },
    ],
  });
});
afterAll(async () => {
  await sim.close();
});

/** A fetch that counts its calls before passing them on. */
function countingFetch(): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  return {
    fetch: (input, init) => {
      calls++;
      return fetch(input, init);
    },
    calls: () => calls,
  };
}

describe("InferenceClient", () => {
  it("applies its token and default options, and per-call arguments and options win", async () => {
    const byDefault = countingFetch();
    const perCall = countingFetch();
    const client = new InferenceClient("sk-client", {
      hubUrl: sim.url,
      routerUrl: sim.url,
      providerBaseUrls: { together: `${sim.url}/together` },
      fetch: byDefault.fetch,
    });
    const call = { model: "client/chat", provider: "together" as const, messages };

    sim.clearRequests();
    await client.chatCompletion(call);
    const direct = sim.requests.at(-1)!;
    expect(direct.path).toBe("/together/v1/chat/completions");
    expect(direct.authScheme).toBe("Bearer");
    expect((direct.json as { model: string }).model).toBe("client/chat-turbo");
    expect(byDefault.calls()).toBeGreaterThan(0);

    const before = byDefault.calls();
    await client.chatCompletion({ ...call, accessToken: "hf_call" }, { fetch: perCall.fetch });
    expect(sim.requests.at(-1)!.authScheme).toBe("Bearer hf_");
    expect(perCall.calls()).toBeGreaterThan(0);
    expect(byDefault.calls()).toBe(before);
  });
});
