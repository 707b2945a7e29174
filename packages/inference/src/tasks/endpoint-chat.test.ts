import { describe, expect, it } from "vitest";
import { AbortError, NetworkError, ProviderApiError, ProviderOutputError } from "../errors.js";
import { openAiChat } from "../protocols/openai-chat.js";
import type { BaseArgs, ChatCompletionInput } from "../types.js";
import { chatCompletion } from "./chat-completion.js";
import { isEndpointChat } from "./endpoint-chat.js";
import { prepare, type RunOptions } from "./prepare.js";

const messages = [{ role: "user" as const, content: "Hello" }];
type Args = BaseArgs & ChatCompletionInput & { endpointUrl: string };

const ANSWER = {
  id: "c",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "Hi" }, finish_reason: "stop" }],
};

/** What the fast path hands fetch for a call, through chatCompletion itself. */
async function sentByFastPath(args: Args, options: RunOptions): Promise<{ url: string; init: RequestInit }> {
  let sent: { url: string; init: RequestInit } | undefined;
  await chatCompletion(args, {
    ...options,
    fetch: async (input, init) => {
      sent = { url: String(input), init: init as RequestInit };
      return Response.json(ANSWER);
    },
  });
  if (!sent) throw new Error("the fast path did not call fetch");
  return sent;
}

/** Endpoint chats the fast path takes, across what changes its request. */
const CASES: Array<{ args: Args; options: RunOptions }> = [
  { args: { endpointUrl: "http://127.0.0.1:9", model: "m", accessToken: "sk-local", messages }, options: {} },
  { args: { endpointUrl: "http://127.0.0.1:9/", model: "m", messages, max_tokens: 5 }, options: {} },
  { args: { endpointUrl: "http://h/v1", accessToken: "hf_x", messages, temperature: 0 }, options: {} },
  { args: { endpointUrl: "http://h/v1/", model: "", messages }, options: { billTo: "org" } },
  { args: { endpointUrl: "http://h/v1/chat/completions", model: "a/b", messages }, options: {} },
  {
    args: { endpointUrl: "https://h/x//", model: "a/b", accessToken: "k", messages, stop: ["x"] },
    options: { billTo: "me" },
  },
];

describe("endpoint chat fast path", () => {
  it("sends what the general path would send: URL, headers in order, body bytes, error wording", async () => {
    for (const { args, options } of CASES) {
      expect(isEndpointChat(args)).toBe(true);
      const fast = await sentByFastPath(args, options);
      const general = await prepare("conversational", { "openai-chat": openAiChat }, args, options, false);
      expect(fast.url).toBe(general.url);
      expect(Object.entries(fast.init.headers as Record<string, string>)).toEqual(
        Object.entries(general.headers),
      );
      expect(fast.init.body).toBe(general.body);
      expect(fast.init.method).toBe(general.method);
      // Nothing else reaches fetch: no signal (nothing can abort the call), no credentials field.
      expect(Object.keys(fast.init)).toEqual(["method", "headers", "body"]);
    }
    // Inherited fields are not the caller's arguments: neither path sends them.
    const inherited = Object.assign(Object.create({ temperature: 2 }) as Args, CASES[0]!.args);
    const general = await prepare("conversational", { "openai-chat": openAiChat }, inherited, {}, false);
    expect((await sentByFastPath(inherited, {})).init.body).toBe(general.body);
    expect(general.body).not.toContain("temperature");
    // The last endpoint's URL and token's header are kept: switching servers and tokens, and back, still
    // goes where each call says, with its own token.
    for (const { args, options } of [...CASES, ...CASES].reverse()) {
      const general = await prepare("conversational", { "openai-chat": openAiChat }, args, options, false);
      const fast = await sentByFastPath(args, options);
      expect(fast.url).toBe(general.url);
      expect(fast.init.headers).toEqual(general.headers);
    }
  });

  it("retries with the same request, which it builds only once the first attempt fails", async () => {
    for (const first of [
      () => new Response("busy", { status: 503 }),
      () => {
        throw new TypeError("fetch failed");
      },
    ]) {
      const sent: Array<{ url: string; init: RequestInit }> = [];
      const output = await chatCompletion(CASES[5]!.args, {
        ...CASES[5]!.options,
        retry: { baseDelayMs: 1, maxAttempts: 2 },
        fetch: async (input, init) => {
          sent.push({ url: String(input), init: init as RequestInit });
          return sent.length === 1 ? first() : Response.json(ANSWER);
        },
      });
      expect(output).toEqual(ANSWER);
      expect(sent).toHaveLength(2);
      expect(sent[1]!.url).toBe(sent[0]!.url);
      expect(sent[1]!.init.method).toBe(sent[0]!.init.method);
      expect(Object.entries(sent[1]!.init.headers as Record<string, string>)).toEqual(
        Object.entries(sent[0]!.init.headers as Record<string, string>),
      );
      expect(sent[1]!.init.body).toBe(sent[0]!.init.body);
    }
    // A body JSON cannot write rejects the call (it does not throw from chatCompletion).
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const unwritable = chatCompletion({ ...CASES[0]!.args, response_format: cyclic } as unknown as Args, {
      fetch: async () => Response.json(ANSWER),
    });
    await expect(unwritable).rejects.toThrow(TypeError);
  });

  it("leaves to the general path what needs routing or is an input error", () => {
    expect(isEndpointChat({ model: "m" })).toBe(false);
    expect(isEndpointChat({ endpointUrl: "", model: "m" })).toBe(false);
    expect(isEndpointChat({ endpointUrl: "http://h", provider: "hf-inference" })).toBe(false);
    expect(isEndpointChat({ endpointUrl: "http://h", model: "https://x.y/m" })).toBe(false);
  });

  it("answers with typed errors: a server without chat, a non-JSON answer, a wrong shape, an abort", async () => {
    const call = (answer: () => Response, options: RunOptions = {}) =>
      chatCompletion(
        { endpointUrl: "http://127.0.0.1:9", model: "m", messages },
        { retryOnError: false, fetch: async () => answer(), ...options },
      );
    const missing = await call(() => new Response("Not Found", { status: 404 })).catch((e: unknown) => e);
    expect(ProviderApiError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toBe(
      "Server m does not seem to support chat completion. Error: Not Found",
    );
    const notJson = call(() => new Response("{", { headers: { "content-type": "application/json" } }));
    await expect(notJson).rejects.toBeInstanceOf(ProviderOutputError);
    const shape = call(() => Response.json({ choices: "none" }));
    await expect(shape).rejects.toBeInstanceOf(ProviderOutputError);
    // Not JSON by its content type: read as a Blob, then refused as the wrong shape.
    const text = call(() => new Response("Hello", { headers: { "content-type": "text/plain" } }));
    await expect(text).rejects.toThrow(/chat completion/);
    // The connection failing in the middle of the body, and a fetch that throws at once.
    const broken = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":'));
        controller.error(new TypeError("other side closed"));
      },
    });
    const cut = call(() => new Response(broken, { headers: { "content-type": "application/json" } }));
    await expect(cut).rejects.toBeInstanceOf(NetworkError);
    await expect(cut).rejects.toThrow("The connection failed while reading the answer: other side closed");
    const throwing = chatCompletion(
      { endpointUrl: "http://127.0.0.1:9", model: "m", messages },
      {
        retryOnError: false,
        fetch: () => {
          throw new TypeError("fetch failed");
        },
      },
    );
    await expect(throwing).rejects.toBeInstanceOf(NetworkError);
    await expect(throwing).rejects.toThrow("hf-inference: request failed: fetch failed");
    const controller = new AbortController();
    const aborted = chatCompletion(
      { endpointUrl: "http://127.0.0.1:9", model: "m", messages },
      {
        signal: controller.signal,
        fetch: (_input, init) =>
          new Promise((_resolve, reject) =>
            init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
          ),
      },
    );
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
  });
});
