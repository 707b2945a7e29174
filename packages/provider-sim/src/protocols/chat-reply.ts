import { type ChatShapes, firstChoice } from "./recorded-chat-shapes.js";

/**
 * The assistant's side of a synthesized OpenAI-style chat: deterministic text (so tests can assert it), tool
 * calls when tools are offered, JSON when a JSON response format is asked for, and the stream chunks.
 */

export interface ChatRequestBody {
  model: string;
  messages: Array<{ role?: string; content?: unknown }>;
  tools?: Array<{ type?: string; function?: { name?: string } }>;
  tool_choice?: unknown;
  response_format?: { type?: string };
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
}

export type ChatAnswer =
  | { kind: "text"; content: string }
  | { kind: "tool-call"; name: string; arguments: string };

const CREATED = 1_740_000_000;

function lastUserText(body: ChatRequestBody): string {
  for (let index = body.messages.length - 1; index >= 0; index--) {
    const message = body.messages[index]!;
    if (message.role !== "user") continue;
    if (typeof message.content === "string") return message.content;
    if (Array.isArray(message.content)) {
      const text = message.content.find(
        (part): part is { type: "text"; text: string } =>
          typeof part === "object" && part !== null && (part as { type?: string }).type === "text",
      );
      if (text) return text.text;
    }
  }
  return "";
}

/** What the simulated model answers. */
export function chatAnswer(body: ChatRequestBody, provider: string): ChatAnswer {
  const tool = body.tools?.find((candidate) => candidate.function?.name);
  if (tool && body.tool_choice !== "none") {
    return {
      kind: "tool-call",
      name: tool.function!.name!,
      arguments: JSON.stringify({ query: lastUserText(body) }),
    };
  }
  const prompt = lastUserText(body).slice(0, 80);
  const sentence = `This is a simulated reply from ${provider} (${body.model}) to: ${prompt}`;
  const format = body.response_format?.type;
  if (format === "json_object" || format === "json_schema") {
    return { kind: "text", content: JSON.stringify({ answer: sentence }) };
  }
  return { kind: "text", content: sentence };
}

function countTokens(text: string): number {
  return Math.max(1, text.split(/\s+/).filter(Boolean).length);
}

export function usageFor(body: ChatRequestBody, completionText: string) {
  const prompt_tokens = body.messages.reduce(
    (total, message) => total + (typeof message.content === "string" ? countTokens(message.content) : 1),
    0,
  );
  const completion_tokens = countTokens(completionText);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

export function chatCompletion(body: ChatRequestBody, provider: string, id: string, shapes: ChatShapes = {}) {
  const answer = chatAnswer(body, provider);
  const toolCall = answer.kind === "tool-call";
  const template = shapes.completion;
  const templateChoice = template ? (firstChoice(template) ?? {}) : {};
  const templateMessage = (templateChoice.message as Record<string, unknown> | undefined) ?? {};
  const message = toolCall
    ? {
        ...templateMessage,
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: `call_${id}`,
            type: "function",
            function: { name: answer.name, arguments: answer.arguments },
          },
        ],
      }
    : { ...templateMessage, role: "assistant", content: answer.content };
  const usage = usageFor(body, toolCall ? answer.arguments : answer.content);
  const finishReason = toolCall
    ? "tool_calls"
    : ((templateChoice.finish_reason as string | undefined) ?? "stop");
  if (template) {
    return {
      ...template,
      id,
      created: CREATED,
      model: body.model,
      choices: [{ ...templateChoice, index: 0, message, finish_reason: finishReason }],
      usage: { ...(template.usage as object | undefined), ...usage },
    };
  }
  return {
    id,
    object: "chat.completion",
    created: CREATED,
    model: body.model,
    system_fingerprint: "provider-sim",
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage,
  };
}

/** Splits text into stream tokens (words with their leading space). */
export function streamTokens(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [text];
}

const TOKEN_MARK = "@@provider-sim-token@@";

/** A chunk template as text around its content: `head + JSON.stringify(token) + tail` is one chunk. */
function chunkFrame(template: Record<string, unknown>, id: string, model: string): string[] {
  const chunk = structuredClone(template);
  Object.assign(chunk, { id, model, created: CREATED });
  const choice = firstChoice(chunk);
  const delta = choice?.delta as Record<string, unknown> | undefined;
  if (delta) delta.content = TOKEN_MARK;
  if (choice && typeof choice.text === "string") choice.text = TOKEN_MARK;
  return JSON.stringify(chunk).split(JSON.stringify(TOKEN_MARK));
}

function withContent(template: Record<string, unknown>, id: string, model: string, content: string) {
  return chunkFrame(template, id, model).join(JSON.stringify(content));
}

/**
 * The `data:` payloads of a chat stream: a role chunk, `chunks` content chunks (the answer's words, cycled when
 * more are asked for), the finish chunk, and a usage chunk when `stream_options.include_usage` is set. Built on
 * the provider's recorded chunks when it has some. A generator so that a 100k-chunk stream is never held in
 * memory.
 */
export function* chatStreamEvents(
  body: ChatRequestBody,
  provider: string,
  id: string,
  chunks: number | undefined,
  shapes: ChatShapes = {},
): Generator<string> {
  const answer = chatAnswer(body, provider);
  const head = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${CREATED},"model":${JSON.stringify(body.model)},"choices":[{"index":0,"delta":`;
  const tail = `,"logprobs":null,"finish_reason":null}]}`;
  const recorded = answer.kind === "text" && shapes.roleChunk && shapes.contentChunk && shapes.finishChunk;
  yield recorded
    ? withContent(shapes.roleChunk!, id, body.model, "")
    : `${head}{"role":"assistant","content":""}${tail}`;
  let completionText: string;
  if (answer.kind === "tool-call") {
    completionText = answer.arguments;
    const call = {
      index: 0,
      id: `call_${id}`,
      type: "function",
      function: { name: answer.name, arguments: "" },
    };
    yield `${head}${JSON.stringify({ tool_calls: [call] })}${tail}`;
    for (const piece of streamTokens(answer.arguments)) {
      yield `${head}${JSON.stringify({ tool_calls: [{ index: 0, function: { arguments: piece } }] })}${tail}`;
    }
  } else {
    const tokens = streamTokens(answer.content).map((token) => JSON.stringify(token));
    const total = chunks ?? tokens.length;
    if (recorded) {
      const frame = chunkFrame(shapes.contentChunk!, id, body.model);
      for (let index = 0; index < total; index++) yield frame.join(tokens[index % tokens.length]!);
    } else {
      for (let index = 0; index < total; index++)
        yield `${head}{"content":${tokens[index % tokens.length]}}${tail}`;
    }
    completionText = total === tokens.length ? answer.content : "x ".repeat(total);
  }
  if (recorded) {
    const finish = JSON.parse(withContent(shapes.finishChunk!, id, body.model, "")) as Record<
      string,
      unknown
    >;
    if (finish.usage && typeof finish.usage === "object") {
      finish.usage = { ...finish.usage, ...usageFor(body, completionText) };
    }
    yield JSON.stringify(finish);
  } else {
    const finish = answer.kind === "tool-call" ? "tool_calls" : "stop";
    yield `${head}{}${tail.replace('"finish_reason":null', `"finish_reason":"${finish}"`)}`;
  }
  if (body.stream_options?.include_usage) {
    const usage = JSON.stringify(usageFor(body, completionText));
    yield `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${CREATED},"model":${JSON.stringify(body.model)},"choices":[],"usage":${usage}}`;
  }
}

/** Text completion (`/completions`): the prompt continued. */
export function completionText(prompt: string, provider: string): string {
  return ` continued by the ${provider} simulator after: ${prompt.slice(0, 60)}`;
}

export { CREATED };
