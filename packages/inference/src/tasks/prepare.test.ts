import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { InferenceClient } from "../client.js";
import { InputError } from "../errors.js";
import { chatCompletion } from "./chat-completion.js";
import { callContextFor } from "./prepare.js";

const COMPLETION = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "local-model",
  choices: [{ index: 0, message: { role: "assistant", content: "Hi" }, finish_reason: "stop" }],
};
const answer = () =>
  new Response(JSON.stringify(COMPLETION), { headers: { "content-type": "application/json" } });
const messages = [{ role: "user" as const, content: "Hello" }];

describe("prepare", () => {
  it("sends an endpointUrl chat straight to the endpoint: no hub lookup first", async () => {
    const urls: string[] = [];
    const pending = chatCompletion(
      { endpointUrl: "http://127.0.0.1:9/", model: "local-model", accessToken: "sk-local", messages },
      {
        fetch: async (input) => {
          urls.push(String(input));
          return answer();
        },
      },
    );
    expect((await pending).choices[0]?.message.content).toBe("Hi");
    expect(urls).toEqual(["http://127.0.0.1:9/v1/chat/completions"]);
  });

  it("a call that fails validation releases the caller's signal", async () => {
    const controller = new AbortController();
    const call = chatCompletion(
      { endpointUrl: "http://127.0.0.1:9", model: "https://example.com/model", messages },
      { signal: controller.signal, fetch: async () => answer() },
    );
    await expect(call).rejects.toBeInstanceOf(InputError);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a call that needs the hub (no endpointUrl) still resolves the model first", async () => {
    const urls: string[] = [];
    const out = await chatCompletion(
      { model: "org/model", provider: "together", accessToken: "together-key", messages },
      {
        hubUrl: "http://hub.test",
        providerBaseUrls: { together: "http://together.test" },
        fetch: async (input) => {
          urls.push(String(input));
          if (String(input).startsWith("http://hub.test")) {
            return Response.json({
              id: "org/model",
              inferenceProviderMapping: {
                together: { status: "live", providerId: "org/model-turbo", task: "conversational" },
              },
            });
          }
          return answer();
        },
      },
    );
    expect(urls).toEqual([
      "http://hub.test/api/models/org/model?expand[]=inferenceProviderMapping",
      "http://together.test/v1/chat/completions",
    ]);
    expect(out.id).toBe("chatcmpl-1");
  });

  it("shares one call context between calls only for frozen options that carry nothing per call", () => {
    const frozen = Object.freeze({ timeoutMs: 5_000 });
    expect(callContextFor(frozen)).toBe(callContextFor(frozen));
    // An options object the caller may still change gets a context per call.
    const open = { timeoutMs: 5_000 };
    expect(callContextFor(open)).not.toBe(callContextFor(open));
    // A signal or an overall timeout is per call state (a listener, a timer): never shared.
    const withSignal = Object.freeze({ signal: new AbortController().signal });
    expect(callContextFor(withSignal)).not.toBe(callContextFor(withSignal));
    const withDeadline = Object.freeze({ totalTimeoutMs: 60_000 });
    const first = callContextFor(withDeadline);
    expect(first).not.toBe(callContextFor(withDeadline));
    first.dispose();
  });

  it("a client's shared defaults do not leak one call's abort into the next", async () => {
    const client = new InferenceClient("sk-local", {
      endpointUrl: "http://127.0.0.1:9",
      fetch: async (_input, init) => {
        if (init?.signal?.aborted) throw init.signal.reason;
        return answer();
      },
    });
    const controller = new AbortController();
    controller.abort();
    await expect(
      client.chatCompletion({ model: "local-model", messages }, { signal: controller.signal }),
    ).rejects.toThrow(/aborted/);
    const out = await client.chatCompletion({ model: "local-model", messages });
    expect(out.choices[0]?.message.content).toBe("Hi");
  });
});
