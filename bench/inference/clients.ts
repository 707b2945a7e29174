/**
 * The four clients, each doing the same thing: one non-streamed chat completion, and one streamed one that
 * counts the chunks. `chunks` travels as a header so every client sends the same request.
 */

import { InferenceClient as HfClient } from "@huggingface/inference";
import { chatCompletion, chatCompletionStream } from "@modelhub/inference";
import OpenAI from "openai";

export interface BenchClient {
  name: string;
  chat(): Promise<string>;
  stream(chunks: number): Promise<number>;
}

const MESSAGES = [{ role: "user" as const, content: "Hello" }];

/**
 * A fetch adding the `x-bench-chunks` header, for the clients that take no per-call headers: one per chunk
 * count, made once, so the harness does not add a closure per stream to those clients' figures.
 */
function chunksFetch(): (chunks: number) => typeof fetch {
  const made = new Map<number, typeof fetch>();
  return (chunks) => {
    let wrapped = made.get(chunks);
    if (!wrapped) {
      const value = String(chunks);
      wrapped = (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as object), "x-bench-chunks": value } });
      made.set(chunks, wrapped);
    }
    return wrapped;
  };
}

/** The chunks of a client's stream, read to the end: the same loop for every client. */
async function countEvents(events: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _event of events) count++;
  return count;
}

export function makeClients(base: string): BenchClient[] {
  const url = `${base}/v1/chat/completions`;
  const headers = (chunks?: number) => ({
    "Content-Type": "application/json",
    Authorization: "Bearer bench-key",
    ...(chunks ? { "x-bench-chunks": String(chunks) } : {}),
  });

  const raw: BenchClient = {
    name: "raw fetch",
    async chat() {
      const res = await fetch(url, {
        method: "POST",
        headers: headers(),
        body: JSON.stringify({ model: "bench-model", messages: MESSAGES, max_tokens: 16 }),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const json = (await res.json()) as { choices: Array<{ message: { content: string } }> };
      return json.choices[0]!.message.content;
    },
    async stream(chunks) {
      const res = await fetch(url, {
        method: "POST",
        headers: headers(chunks),
        body: JSON.stringify({ model: "bench-model", messages: MESSAGES, stream: true }),
      });
      return countRawEvents(res.body!);
    },
  };

  const modelhubFetch = chunksFetch();
  const modelhub: BenchClient = {
    name: "@modelhub/inference",
    async chat() {
      const out = await chatCompletion({
        endpointUrl: base,
        model: "bench-model",
        accessToken: "bench-key",
        messages: MESSAGES,
        max_tokens: 16,
      });
      return out.choices[0]!.message.content ?? "";
    },
    stream: (chunks) =>
      countEvents(
        chatCompletionStream(
          { endpointUrl: base, model: "bench-model", accessToken: "bench-key", messages: MESSAGES },
          { fetch: modelhubFetch(chunks) },
        ),
      ),
  };

  const hf = new HfClient("bench-key").endpoint(base);
  const hfFetch = chunksFetch();
  const huggingface: BenchClient = {
    name: "@huggingface/inference",
    async chat() {
      const out = await hf.chatCompletion({ model: "bench-model", messages: MESSAGES, max_tokens: 16 });
      return out.choices[0]!.message.content ?? "";
    },
    stream(chunks) {
      const streamClient = new HfClient("bench-key", { fetch: hfFetch(chunks) }).endpoint(base);
      return countEvents(streamClient.chatCompletionStream({ model: "bench-model", messages: MESSAGES }));
    },
  };

  const oai = new OpenAI({ baseURL: `${base}/v1`, apiKey: "bench-key", maxRetries: 0 });
  const openai: BenchClient = {
    name: "openai",
    async chat() {
      const out = await oai.chat.completions.create({
        model: "bench-model",
        messages: MESSAGES,
        max_tokens: 16,
      });
      return out.choices[0]!.message.content ?? "";
    },
    async stream(chunks) {
      return countEvents(
        await oai.chat.completions.create(
          { model: "bench-model", messages: MESSAGES, stream: true },
          { headers: { "x-bench-chunks": String(chunks) } },
        ),
      );
    },
  };

  // The floor of a client that checks what it receives, and nothing more: raw fetch plus the status and
  // content-type checks before reading, and one shape check of the parsed answer (the checks
  // @modelhub/inference makes on a chat answer, inline): what any validating client pays over a bare fetch.
  const checked: BenchClient = {
    name: CHECKED_FETCH,
    async chat() {
      const res = await fetch(url, {
        method: "POST",
        headers: headers(),
        body: JSON.stringify({ model: "bench-model", messages: MESSAGES, max_tokens: 16 }),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      if (!res.headers.get("content-type")?.includes("json")) throw new Error("not a JSON answer");
      return checkedCompletion(await res.json()).choices[0]!.message.content;
    },
    async stream(chunks) {
      const res = await fetch(url, {
        method: "POST",
        headers: headers(chunks),
        body: JSON.stringify({ model: "bench-model", messages: MESSAGES, stream: true }),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return countRawEvents(res.body!, checkedChunk);
    },
  };

  return [raw, modelhub, huggingface, openai, checked];
}

export const CHECKED_FETCH = "fetch + checks";

type Completion = { choices: Array<{ message: { content: string } }> };
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One shape check of a chat completion: the fields a caller reads, typed. */
function checkedCompletion(value: unknown): Completion {
  const ok =
    isRecord(value) &&
    Array.isArray(value.choices) &&
    typeof value.created === "number" &&
    typeof value.id === "string" &&
    typeof value.model === "string" &&
    (value.usage === undefined || isRecord(value.usage));
  if (!ok) throw new Error("not a chat completion");
  return value as Completion;
}

/** One shape check of a stream chunk. */
function checkedChunk(value: unknown): void {
  if (!isRecord(value) || !Array.isArray(value.choices)) throw new Error("not a chat completion chunk");
}

/**
 * What a developer writes by hand to read an OpenAI-style stream: split on blank lines, drop "data: ", parse.
 * The raw-fetch baseline of the streaming figures (on the wire and in process).
 */
export async function countRawEvents(
  body: ReadableStream<Uint8Array>,
  check?: (event: unknown) => void,
): Promise<number> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let count = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return count;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.slice(6);
      if (data === "[DONE]") return count;
      const parsed = JSON.parse(data) as unknown;
      check?.(parsed);
      count++;
      end = buffer.indexOf("\n\n");
    }
  }
}
