import { randomBytes, timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { type Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { HubError } from "../errors.js";
import type { Logger } from "../logger.js";
import { LocalProviderBusyError } from "./local-admission.js";
import type { LocalEngine, LocalPiece, LocalPrompt } from "./local-engine.js";
import { MAX_SEED, MIN_SEED, SEED_RANGE_MESSAGE } from "./local-seed.js";

/** The provider name the local provider has in the router (`owner/name:local`). */
export const LOCAL_PROVIDER_NAME = "local";

const MAX_STOP_CHARS = 256;
/** As OpenAI's API bounds it. */
const MAX_LOGIT_BIAS_TOKENS = 300;
const stopSequence = z
  .string()
  .max(MAX_STOP_CHARS, `a stop sequence may be at most ${MAX_STOP_CHARS} characters long`);

const sampling = {
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().gt(0).max(1).optional(),
  // llama.cpp's sampler is seeded with it (local-seed.ts): the same seed and prompt give the same tokens. OpenAI's
  // whole 64-bit range, which zod's int() (safe integers only) would refuse past 2^53.
  seed: z
    .number()
    .refine((seed) => Number.isInteger(seed) && seed >= MIN_SEED && seed <= MAX_SEED, SEED_RANGE_MESSAGE)
    .nullish(),
  stream: z.boolean().optional(),
  // include_usage: a last chunk with the usage and no choices, as OpenAI streams it (answer()); only with `stream`.
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  // OpenAI's penalties are llama.cpp's: its penalties sampler subtracts count × frequency_penalty plus
  // presence_penalty from the logit of each token the answer holds so far (local-engine.ts).
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  // Added to the logits before sampling, as OpenAI does; the ids are the model's own tokenizer's. Bounded: the
  // map goes to llama.cpp's sampler, which scans it for every token.
  logit_bias: z
    .record(z.string(), z.number().min(-100).max(100))
    .refine(
      (bias) => Object.keys(bias).every((token) => /^\d{1,9}$/.test(token)),
      "logit_bias maps token ids of the model (whole numbers, as strings) to biases",
    )
    .refine(
      (bias) => Object.keys(bias).length <= MAX_LOGIT_BIAS_TOKENS,
      `logit_bias may hold at most ${MAX_LOGIT_BIAS_TOKENS} tokens`,
    )
    .nullish(),
  // Bounded: a stream holds back any end that may begin a stop sequence, checked on every token on the hub's
  // main thread, at a cost that grows with the square of the longest sequence.
  stop: z.union([stopSequence, z.array(stopSequence).max(4)]).nullish(),
  // One llama.cpp sequence per call: several choices are refused rather than silently answered as one.
  n: z
    .number()
    .int()
    .refine((n) => n === 1, "the local provider answers one choice per call: leave n unset or 1")
    .nullish(),
};
/** As OpenAI's API answers it: the options only shape a stream. */
const STREAM_OPTIONS_WITHOUT_STREAM = {
  message: "stream_options is only allowed when stream is true: leave it out, or set stream",
  path: ["stream_options"],
};
function streamOptionsOnlyWithStream(body: { stream?: boolean; stream_options?: unknown }): boolean {
  return body.stream === true || body.stream_options == null;
}
/**
 * Log probabilities are not returned (nor the prompt echoed): asked for, refused rather than answered without
 * them, so that a caller relying on them learns it at once. Unset, null or false pass.
 */
const NO_LOGPROBS =
  "the local provider does not return log probabilities yet: leave logprobs unset, or call another provider";
const chatInput = z
  .looseObject({
    model: z.string(),
    messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })).min(1),
    ...sampling,
    logprobs: z.literal(false, { error: NO_LOGPROBS }).nullish(),
    top_logprobs: z.null({ error: NO_LOGPROBS }).optional(),
    // Not applied yet (the answer is plain generated text): refused rather than silently ignored, so that a
    // caller relying on tool calls or on JSON learns it at once.
    tools: z
      .array(z.unknown())
      .max(0, "the local provider does not run tools yet: call without tools, or another provider")
      .nullish(),
    response_format: z
      .looseObject({
        type: z.literal("text", {
          error:
            "the local provider does not constrain answers to JSON yet: leave response_format out, or call another provider",
        }),
      })
      .nullish(),
  })
  .refine(streamOptionsOnlyWithStream, STREAM_OPTIONS_WITHOUT_STREAM);
const completionInput = z
  .looseObject({
    model: z.string(),
    prompt: z.string(),
    ...sampling,
    // The legacy API's `logprobs` is a count (0 included asks for the chosen tokens' own).
    logprobs: z.null({ error: NO_LOGPROBS }).optional(),
    echo: z
      .literal(false, {
        error:
          "the local provider does not echo the prompt: leave echo unset or false, or call another provider",
      })
      .nullish(),
    // One sequence per call: several candidates to pick the best of are refused rather than answered as one.
    best_of: z
      .number()
      .int()
      .refine((n) => n === 1, "the local provider generates one candidate per call: leave best_of unset or 1")
      .nullish(),
    // Text after the insertion (fill-in-the-middle) is not given to the model: refused rather than ignored.
    suffix: z
      .literal("", {
        error:
          "the local provider does not insert text before a suffix: leave suffix unset, or call another provider",
      })
      .nullish(),
  })
  .refine(streamOptionsOnlyWithStream, STREAM_OPTIONS_WITHOUT_STREAM);

/** Default answer length when the caller sets none (OpenAI servers each pick one; llama.cpp's is unbounded). */
const DEFAULT_MAX_TOKENS = 256;

/**
 * The local provider as an OpenAI-compatible server on loopback, so that the router calls it as it calls any
 * own provider (selection, failover, streaming, usage records, key scrubbing: nothing special-cased). Only
 * this process knows its random bearer key. Chat and text completions, whole or streamed, with `usage`.
 */
export async function startLocalProviderServer(engine: LocalEngine, logger: Logger) {
  const secret = `local-${randomBytes(24).toString("hex")}`;
  const expected = Buffer.from(`Bearer ${secret}`);
  const app = new Hono();
  app.use("*", async (c, next) => {
    const given = Buffer.from(c.req.header("authorization") ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return c.json({ error: { message: "Unknown key for the local provider.", type: "unauthorized" } }, 401);
    }
    await next();
  });
  app.onError((error, c) => {
    const status = HubError.isInstance(error) ? error.status : 500;
    if (error instanceof LocalProviderBusyError) c.header("Retry-After", String(error.retryAfterSeconds));
    // The caller is told only that it failed; the operator needs the cause (a file the hub cannot read, a
    // GGUF llama.cpp refuses...).
    if (!HubError.isInstance(error)) {
      logger.log("error", "local provider call failed", { path: c.req.path, error: String(error) });
    }
    const message = HubError.isInstance(error) ? error.message : "The local provider failed.";
    return c.json(
      { error: { message, type: HubError.isInstance(error) ? error.code : "server_error" } },
      status,
    );
  });
  app.get("/health", (c) => c.json({ status: "ok", ...engine.stats() }));

  app.post("/v1/chat/completions", async (c) => {
    const body = parse(chatInput, await c.req.json());
    return answer(c, body, { messages: body.messages.map(withTextContent) }, "chat.completion");
  });
  app.post("/v1/completions", async (c) => {
    const body = parse(completionInput, await c.req.json());
    return answer(c, body, { prompt: body.prompt }, "text_completion");
  });

  async function answer(
    c: Context,
    body: z.infer<typeof completionInput> | z.infer<typeof chatInput>,
    prompt: LocalPrompt,
    object: "chat.completion" | "text_completion",
  ) {
    const id = `${object === "chat.completion" ? "chatcmpl" : "cmpl"}-${randomBytes(12).toString("hex")}`;
    const created = Math.floor(Date.now() / 1000);
    const pieces = engine.generate(
      body.model,
      prompt,
      {
        maxTokens: body.max_completion_tokens ?? body.max_tokens ?? DEFAULT_MAX_TOKENS,
        temperature: body.temperature ?? 1,
        topP: body.top_p,
        seed: body.seed ?? undefined,
        frequencyPenalty: body.frequency_penalty ?? undefined,
        presencePenalty: body.presence_penalty ?? undefined,
        logitBias: body.logit_bias
          ? new Map(Object.entries(body.logit_bias).map(([token, bias]) => [Number(token), bias]))
          : undefined,
        stop: typeof body.stop === "string" ? [body.stop] : (body.stop ?? undefined),
      },
      c.req.raw.signal,
    );
    // The first piece before any header: a full queue, an unknown model or a too long prompt answer an error.
    const first = await pieces.next();
    const chat = object === "chat.completion";
    const choice = (text: string, finish: string | null, streamed: boolean) =>
      chat
        ? {
            index: 0,
            [streamed ? "delta" : "message"]: { role: "assistant", content: text },
            finish_reason: finish,
          }
        : { index: 0, text, finish_reason: finish, logprobs: null };
    const head = { id, created, model: body.model };

    if (!body.stream) {
      let text = "";
      let end: Extract<LocalPiece, { done: true }> | undefined;
      for (let piece = first; !piece.done; piece = await pieces.next()) {
        if ("text" in piece.value) text += piece.value.text;
        else end = piece.value;
      }
      return c.json({
        ...head,
        object,
        choices: [choice(text, end?.finishReason ?? "stop", false)],
        usage: end?.usage,
      });
    }
    const chunkObject = chat ? "chat.completion.chunk" : "text_completion";
    // As OpenAI streams: asked for, every chunk has `usage: null` and a last one, with no choices, the usage;
    // not asked for, no chunk has a `usage`.
    const includeUsage = body.stream_options?.include_usage === true;
    const chunk = (choices: unknown[], usage?: unknown) => ({
      ...head,
      object: chunkObject,
      choices,
      ...(includeUsage ? { usage: usage ?? null } : {}),
    });
    return streamSSE(c, async (sse) => {
      try {
        for (let piece = first; !piece.done; piece = await pieces.next()) {
          const value = piece.value;
          if ("text" in value) {
            await sse.writeSSE({ data: JSON.stringify(chunk([choice(value.text, null, true)])) });
            continue;
          }
          await sse.writeSSE({ data: JSON.stringify(chunk([choice("", value.finishReason, true)])) });
          if (includeUsage) await sse.writeSSE({ data: JSON.stringify(chunk([], value.usage)) });
        }
      } catch (error) {
        // Past the head (the answer's time limit, LocalAnswerTimeoutError): an error event, as OpenAI's API
        // sends one mid-stream, which its clients raise; the stream ends without [DONE], visibly cut.
        if (!HubError.isInstance(error)) throw error;
        await sse.writeSSE({ data: JSON.stringify({ error: { message: error.message, type: error.code } }) });
        return;
      }
      await sse.writeSSE({ data: "[DONE]" });
    });
  }

  const server = createAdaptorServer({ fetch: app.fetch, hostname: "127.0.0.1" });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    secret,
    async close(): Promise<void> {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}

export type LocalProviderServer = Awaited<ReturnType<typeof startLocalProviderServer>>;

/**
 * A message whose content is a list of parts, with the text parts joined into one string: most GGUF chat
 * templates print `message.content` as it is, so a list would reach the model as its Python repr (as
 * llama.cpp's own server does, text parts are joined). Other parts (images, audio) are refused: the local
 * provider runs text models only.
 */
function withTextContent<M extends { content: unknown }>(message: M): M {
  if (!Array.isArray(message.content)) return message;
  const texts = message.content.map((part: unknown) => {
    const typed = part as { type?: unknown; text?: unknown } | null;
    if (typed?.type === "text" && typeof typed.text === "string") return typed.text;
    throw new HubError(
      400,
      "invalid_input",
      `The local provider runs text models only: a content part of type ${JSON.stringify(String(typed?.type).slice(0, 40))} cannot be given to it; send text parts or a string.`,
    );
  });
  return { ...message, content: texts.join("") };
}

function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new HubError(
      400,
      "invalid_input",
      `Invalid request for the local provider: ${result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
    );
  }
  return result.data;
}
