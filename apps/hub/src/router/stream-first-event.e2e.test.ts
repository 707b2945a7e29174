import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import type { RunningHub } from "../start-hub.js";
import { grantGatedModelsToEveryone, INFERENCE_TOKEN_FOR_GATED_MODELS } from "./__fixtures__/gated-grants.js";

/**
 * A streamed answer's first event reaches the caller before the provider sends its second, through the whole
 * hub on loopback (envelope, route, provider call, scrubber, @hono/node-server, the hub's ServerResponse):
 * the provider, a node:http server, sends one event and waits for the caller to hold it before it sends the
 * next. Anything that holds an event back until more bytes come (a buffering transform, a flush policy, the
 * scrubber keeping a tail, a corked socket never uncorked) stalls the exchange, and the test says which event
 * did not come. Issue 40: bench:router's added first-byte latency on paced streamed calls.
 */
const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const KEY = `sk-lockstep-${"k3".repeat(12)}`;
/** How long the provider waits for the caller to hold an event before it sends the next one anyway. */
const LOCKSTEP_WAIT_MS = 2_000;

let temp: ReturnType<typeof makeTempDir>;
let provider: Server;
let hub: RunningHub;
let client: OpenAI;
let token: string;

/** What the provider does with the next chat call. */
let answerNext: (request: IncomingMessage, response: ServerResponse) => void;

/** A chat completion chunk as OpenAI-compatible servers stream it. */
function chunkEvent(content: string, finish: string | null = null): string {
  const delta = finish === null ? { role: "assistant", content } : {};
  return `data: ${JSON.stringify({
    id: "chatcmpl-lockstep",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "lockstep",
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
}

/**
 * The provider's side of one lockstep exchange: events sent one at a time, each only once `held(index)` says
 * the caller holds the one before (or LOCKSTEP_WAIT_MS passed: then `late` names the events that waited).
 */
function lockstep(contents: readonly string[]) {
  const waiters: Array<() => void> = [];
  const held = contents.map(
    (_, index) =>
      new Promise<void>((resolve) => {
        waiters[index] = resolve;
      }),
  );
  const late: number[] = [];
  const sent: number[] = [];
  const answer = async (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const [index, content] of contents.entries()) {
      if (index > 0) {
        const timedOut = await Promise.race([
          held[index - 1]!.then(() => false),
          new Promise<boolean>((resolve) => setTimeout(resolve, LOCKSTEP_WAIT_MS, true)),
        ]);
        if (timedOut) late.push(index);
      }
      sent.push(index);
      response.write(chunkEvent(content));
    }
    response.end(`${chunkEvent("", "stop")}data: [DONE]\n\n`);
  };
  return { answer, late, sent, hold: (index: number) => waiters[index]?.() };
}

beforeAll(async () => {
  temp = makeTempDir();
  provider = createServer((request, response) => {
    request.resume();
    request.once("end", () => answerNext(request, response));
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const { port } = provider.address() as AddressInfo;
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    providerSim: false,
    providerKeys: { together: KEY },
    providerBaseUrls: { together: `http://127.0.0.1:${port}` },
  });
  token = (
    await accountsService(hub.store.accounts).createToken(undefined, {
      name: "lockstep",
      ...INFERENCE_TOKEN_FOR_GATED_MODELS,
    })
  ).token;
  // The catalogue's gated models need a grant for inference, as for their files.
  await grantGatedModelsToEveryone(hub.store);
  client = new OpenAI({ baseURL: `${hub.url}/v1`, apiKey: token, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await new Promise((resolve) => provider?.close(resolve));
  temp?.remove();
});

const CONTENTS = ["Paris", " is", " the", " capital", "."];

describe("a streamed answer's events, through the whole hub", { timeout: 30_000 }, () => {
  it("reach an openai client's chat stream one by one, each before the provider sends the next", async () => {
    const exchange = lockstep(CONTENTS);
    answerNext = exchange.answer;
    const stream = await client.chat.completions.create({
      model: `${MODEL}:together`,
      messages: [{ role: "user", content: "What is the capital of France?" }],
      stream: true,
    });
    const received: string[] = [];
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (!content) continue;
      // The provider has sent exactly this event and no later one: the hub passed it on by itself.
      expect(exchange.sent, `event ${received.length} arrived only after a later one was sent`).toEqual(
        CONTENTS.slice(0, received.length + 1).map((_, index) => index),
      );
      received.push(content);
      exchange.hold(received.length - 1);
    }
    expect(received).toEqual(CONTENTS);
    expect(exchange.late, "events the caller did not get before the provider's next").toEqual([]);
  });

  it("reach a Responses API stream (translated from the provider's chat events) one by one", async () => {
    const exchange = lockstep(CONTENTS);
    answerNext = exchange.answer;
    const stream = await client.responses.create({ model: `${MODEL}:together`, input: "Hi", stream: true });
    const received: string[] = [];
    for await (const event of stream) {
      if (event.type !== "response.output_text.delta") continue;
      expect(exchange.sent, `delta ${received.length} arrived only after a later event was sent`).toEqual(
        CONTENTS.slice(0, received.length + 1).map((_, index) => index),
      );
      received.push(event.delta);
      exchange.hold(received.length - 1);
    }
    expect(received).toEqual(CONTENTS);
    expect(exchange.late).toEqual([]);
  });

  it("a stream asked for but answered whole (a provider's error) reaches the caller whole, scrubbed", async () => {
    // The answer's stream is made before the provider's head (the caller asked for a stream): unused here.
    answerNext = (_request, response) => {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `Invalid request for key ${KEY}` } }));
    };
    const failure = await client.chat.completions
      .create({ model: `${MODEL}:together`, messages: [{ role: "user", content: "Hi" }], stream: true })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    const message = (failure as Error).message;
    expect(message).toContain("Invalid request for key [redacted]");
    expect(message).not.toContain(KEY);
  });

  it("reach a raw caller of /router/together one read at a time, scrubbed, with no wait", async () => {
    // The key sent in an event (a provider echoing its credential) is redacted without holding the event.
    const contents = ["one", ` key ${KEY} `, "three"];
    const exchange = lockstep(contents);
    answerNext = exchange.answer;
    const response = await fetch(`${hub.url}/router/together/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        model: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
        messages: [],
        stream: true,
      }),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let events = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const complete = text.split("\n\n").length - 1;
      while (events < complete && events < contents.length) exchange.hold(events++);
    }
    expect(text).not.toContain(KEY);
    expect(text).toContain(" key [redacted] ");
    expect(exchange.late).toEqual([]);
  });
});
