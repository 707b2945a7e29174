import { randomBytes } from "node:crypto";
import { InvalidInputError } from "../errors.js";

/**
 * The OpenAI Responses API (`POST /v1/responses`) over providers that speak chat completions: the caller's
 * Responses body as a chat completions body, and the chat answer (whole, or its stream of chunks) as a
 * Response object or its stream of events. Shapes as the `openai` clients read them (openai-python's
 * `types/responses`): stateless, so `previous_response_id` and stored conversations are refused, as are
 * hosted tools (web search, file search...) that only OpenAI runs; function tools are translated.
 */

/** Keys of a Responses body that are translated or echoed; any other is refused with this list. */
const KNOWN_KEYS = new Set([
  "model",
  "input",
  "instructions",
  "max_output_tokens",
  "temperature",
  "top_p",
  "stream",
  "metadata",
  "user",
  "store",
  "text",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "truncation",
  "reasoning",
  "service_tier",
  "top_logprobs",
  "safety_identifier",
  "prompt_cache_key",
  "stream_options",
]);

/** What a Response object repeats of the request (as OpenAI's does). */
export interface ResponseEcho {
  model: string;
  instructions: string | null;
  max_output_tokens: number | null;
  temperature: number | null;
  top_p: number | null;
  tools: unknown[];
  tool_choice: unknown;
  parallel_tool_calls: boolean;
  metadata: Record<string, unknown>;
  text: unknown;
  user: string | null;
}

export interface TranslatedRequest {
  chat: Record<string, unknown>;
  echo: ResponseEcho;
  stream: boolean;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function refuse(message: string): never {
  throw new InvalidInputError(`${message} (POST /v1/responses)`);
}

/** A message's content part as chat completions takes it. */
function chatPart(part: unknown, role: string): Json {
  if (!isObject(part)) refuse(`A content part of a ${role} message must be an object`);
  switch (part.type) {
    case "input_text":
    case "output_text":
      if (typeof part.text !== "string") refuse(`A ${part.type} part needs "text"`);
      return { type: "text", text: part.text };
    case "input_image": {
      if (typeof part.image_url !== "string") {
        refuse('An input_image part needs "image_url" (a URL or a data: URL; file ids are not stored here)');
      }
      return {
        type: "image_url",
        image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) },
      };
    }
    default:
      return refuse(
        `Content parts of type ${JSON.stringify(String(part.type).slice(0, 40))} are not translated: use input_text or input_image`,
      );
  }
}

/** A message's content: a string as it is, parts translated (an assistant's as plain text, as chat takes it). */
function chatContent(content: unknown, role: string): unknown {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) refuse(`A ${role} message's "content" must be a string or a list of parts`);
  const parts = content.map((part) => chatPart(part, role));
  if (role === "assistant" || role === "system") {
    return parts
      .map((part) => (part.type === "text" ? part.text : refuse(`A ${role} message holds text only`)))
      .join("");
  }
  return parts;
}

/** The Responses `input` (a string, or a list of items) as chat messages. */
function chatMessages(input: unknown, instructions: string | null): Json[] {
  const messages: Json[] = [];
  if (instructions) messages.push({ role: "system", content: instructions });
  if (typeof input === "string") {
    messages.push({ role: "user", content: input });
    return messages;
  }
  if (!Array.isArray(input) || input.length === 0) {
    refuse('"input" must be a string or a non-empty list of items');
  }
  for (const item of input) {
    if (!isObject(item)) refuse('Each item of "input" must be an object');
    const type = item.type ?? "message";
    if (type === "message") {
      const role = item.role;
      if (role !== "user" && role !== "assistant" && role !== "system" && role !== "developer") {
        refuse('A message\'s "role" must be user, assistant, system or developer');
      }
      // Chat servers outside OpenAI rarely know "developer": it is the system prompt.
      const chatRole = role === "developer" ? "system" : role;
      messages.push({ role: chatRole, content: chatContent(item.content, chatRole) });
    } else if (type === "function_call") {
      if (typeof item.call_id !== "string" || typeof item.name !== "string") {
        refuse('A function_call item needs "call_id" and "name"');
      }
      const call = {
        id: item.call_id,
        type: "function",
        function: { name: item.name, arguments: typeof item.arguments === "string" ? item.arguments : "{}" },
      };
      // Consecutive calls belong to one assistant turn.
      const last = messages.at(-1);
      if (last?.role === "assistant" && Array.isArray(last.tool_calls)) last.tool_calls.push(call);
      else messages.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (type === "function_call_output") {
      if (typeof item.call_id !== "string") refuse('A function_call_output item needs "call_id"');
      // A list of parts (the API's other form) is its text: chat tool messages take text.
      const output =
        typeof item.output === "string"
          ? item.output
          : Array.isArray(item.output)
            ? item.output
                .map((part) => chatPart(part, "tool"))
                .map((part) =>
                  part.type === "text" ? part.text : refuse("A function_call_output holds text parts only"),
                )
                .join("")
            : JSON.stringify(item.output ?? "");
      messages.push({ role: "tool", tool_call_id: item.call_id, content: output });
    } else if (type === "reasoning") {
    } else if (type === "item_reference") {
      refuse(
        "Item references need stored responses, which this router does not keep: send the items themselves",
      );
    } else {
      refuse(`Input items of type ${JSON.stringify(String(type).slice(0, 40))} are not translated`);
    }
  }
  return messages;
}

/** Function tools as chat tools; OpenAI's hosted tools have no chat equivalent. */
function chatTools(tools: unknown): Json[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) refuse('"tools" must be a list');
  if (tools.length === 0) return undefined;
  return tools.map((tool) => {
    if (!isObject(tool) || tool.type !== "function" || typeof tool.name !== "string") {
      refuse(
        `Only function tools are translated (got ${JSON.stringify(isObject(tool) ? String(tool.type).slice(0, 40) : typeof tool)})`,
      );
    }
    const fn: Json = { name: tool.name };
    if (tool.description !== undefined) fn.description = tool.description;
    if (tool.parameters !== undefined) fn.parameters = tool.parameters;
    if (tool.strict !== undefined && tool.strict !== null) fn.strict = tool.strict;
    return { type: "function", function: fn };
  });
}

function chatToolChoice(choice: unknown): unknown {
  if (choice === undefined || choice === null) return undefined;
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (isObject(choice) && choice.type === "function" && typeof choice.name === "string") {
    return { type: "function", function: { name: choice.name } };
  }
  return refuse('"tool_choice" must be auto, none, required or {"type": "function", "name": ...}');
}

/** `text.format` as chat's `response_format`. */
function chatResponseFormat(text: unknown): Json | undefined {
  if (text === undefined || text === null) return undefined;
  if (!isObject(text)) refuse('"text" must be an object');
  const format = text.format;
  if (format === undefined || format === null) return undefined;
  if (!isObject(format)) refuse('"text.format" must be an object');
  if (format.type === "text") return undefined;
  if (format.type === "json_object") return { type: "json_object" };
  if (format.type === "json_schema") {
    const { type: _type, ...schema } = format;
    return { type: "json_schema", json_schema: schema };
  }
  return refuse('"text.format.type" must be text, json_object or json_schema');
}

const numberOrNull = (value: unknown, key: string): number | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number") refuse(`"${key}" must be a number`);
  return value;
};

/** The caller's Responses body as a chat completions body (the router then routes it as any chat call). */
export function translateRequest(body: Json): TranslatedRequest {
  for (const key of Object.keys(body)) {
    if (!KNOWN_KEYS.has(key)) {
      if (key === "previous_response_id" || key === "conversation") {
        refuse(`"${key}" needs stored responses, which this router does not keep: send the whole input`);
      }
      refuse(
        `"${key.slice(0, 40)}" is not translated to chat completions; known keys: ${[...KNOWN_KEYS].join(", ")}`,
      );
    }
  }
  if (body.background === true) refuse("Background responses are not supported");
  // Nothing is kept, so a response asked to be stored could never be retrieved or continued.
  if (body.store === true) {
    refuse(
      '"store": true needs stored responses, which this router does not keep: leave it out or set it to false',
    );
  }
  const instructions = body.instructions ?? null;
  if (instructions !== null && typeof instructions !== "string") refuse('"instructions" must be a string');
  const stream = body.stream === true;
  const chat: Json = { model: body.model, messages: chatMessages(body.input, instructions) };
  const maxTokens = numberOrNull(body.max_output_tokens, "max_output_tokens");
  if (maxTokens !== null) chat.max_tokens = maxTokens;
  const temperature = numberOrNull(body.temperature, "temperature");
  if (temperature !== null) chat.temperature = temperature;
  const topP = numberOrNull(body.top_p, "top_p");
  if (topP !== null) chat.top_p = topP;
  const tools = chatTools(body.tools);
  if (tools) chat.tools = tools;
  const toolChoice = chatToolChoice(body.tool_choice);
  if (toolChoice !== undefined && tools) chat.tool_choice = toolChoice;
  if (typeof body.parallel_tool_calls === "boolean" && tools)
    chat.parallel_tool_calls = body.parallel_tool_calls;
  const format = chatResponseFormat(body.text);
  if (format) chat.response_format = format;
  if (stream) {
    chat.stream = true;
    // Usage arrives in a last chunk, for the final event's `usage`.
    chat.stream_options = { include_usage: true };
  }
  return {
    chat,
    stream,
    echo: {
      model: String(body.model),
      instructions,
      max_output_tokens: maxTokens,
      temperature,
      top_p: topP,
      tools: Array.isArray(body.tools) ? body.tools : [],
      tool_choice: body.tool_choice ?? "auto",
      parallel_tool_calls: body.parallel_tool_calls !== false,
      metadata: isObject(body.metadata) ? body.metadata : {},
      text: isObject(body.text) ? body.text : { format: { type: "text" } },
      user: typeof body.user === "string" ? body.user : null,
    },
  };
}

const newId = (prefix: string) => `${prefix}_${randomBytes(24).toString("hex")}`;

/** Chat usage as Responses usage. */
function usageOf(usage: unknown): Json | null {
  if (!isObject(usage)) return null;
  const input = Number(usage.prompt_tokens ?? 0);
  const output = Number(usage.completion_tokens ?? 0);
  const inputDetails = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const cached = Number(inputDetails.cached_tokens ?? 0);
  // Required by the clients' types (openai-python's InputTokensDetails); chat servers rarely report it.
  const cacheWrites = Number(inputDetails.cache_write_tokens ?? 0);
  const reasoning = isObject(usage.completion_tokens_details)
    ? Number(usage.completion_tokens_details.reasoning_tokens ?? 0)
    : 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached, cache_write_tokens: cacheWrites },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: Number(usage.total_tokens ?? input + output),
  };
}

/** A Response object: the request's echo, its output items, status and usage. */
function responseObject(
  id: string,
  createdAt: number,
  echo: ResponseEcho,
  state: { status: string; output: Json[]; usage: Json | null; finishReason?: string | null },
): Json {
  // Cut by the token limit or by the provider's content filter: OpenAI's two incomplete reasons.
  const incompleteReason =
    state.finishReason === "length"
      ? "max_output_tokens"
      : state.finishReason === "content_filter"
        ? "content_filter"
        : undefined;
  const incomplete = incompleteReason !== undefined;
  return {
    id,
    object: "response",
    created_at: createdAt,
    status: state.status === "completed" && incomplete ? "incomplete" : state.status,
    error: null,
    incomplete_details: incomplete && state.status === "completed" ? { reason: incompleteReason } : null,
    ...echo,
    output: state.output,
    previous_response_id: null,
    reasoning: null,
    // Nothing is stored: a later call cannot refer to this response.
    store: false,
    truncation: "disabled",
    usage: state.usage,
  };
}

const messageItem = (id: string, text: string, status: string): Json => ({
  type: "message",
  id,
  status,
  role: "assistant",
  content: [{ type: "output_text", text, annotations: [] }],
});

/** The reasoning text a chat server gives beside the answer (`reasoning_content`: DeepSeek, vLLM; `reasoning`). */
function reasoningOf(message: Json): string | undefined {
  const text = message.reasoning_content ?? message.reasoning;
  return typeof text === "string" && text !== "" ? text : undefined;
}

const reasoningItem = (id: string, text: string, status: string): Json => ({
  type: "reasoning",
  id,
  summary: [],
  content: [{ type: "reasoning_text", text }],
  status,
});

const functionCallItem = (id: string, callId: string, name: string, args: string, status: string): Json => ({
  type: "function_call",
  id,
  call_id: callId,
  name,
  arguments: args,
  status,
});

/** A whole chat completion as a Response object. */
export function translateCompletion(completion: unknown, echo: ResponseEcho): Json {
  if (!isObject(completion) || !Array.isArray(completion.choices)) {
    throw new TypeError("the provider's chat answer has no choices");
  }
  const choice = completion.choices[0] as Json | undefined;
  const message = isObject(choice?.message) ? choice.message : {};
  const output: Json[] = [];
  const reasoning = reasoningOf(message);
  if (reasoning) output.push(reasoningItem(newId("rs"), reasoning, "completed"));
  if (typeof message.content === "string" && message.content !== "") {
    output.push(messageItem(newId("msg"), message.content, "completed"));
  }
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls as Json[]) {
      const fn = isObject(call.function) ? call.function : {};
      output.push(
        functionCallItem(
          newId("fc"),
          String(call.id),
          String(fn.name),
          String(fn.arguments ?? ""),
          "completed",
        ),
      );
    }
  }
  const created = typeof completion.created === "number" ? completion.created : Math.floor(Date.now() / 1000);
  return responseObject(newId("resp"), created, echo, {
    status: "completed",
    output,
    usage: usageOf(completion.usage),
    finishReason: (choice?.finish_reason as string | null | undefined) ?? null,
  });
}

/** One Server-Sent Event of the Responses stream. */
const sse = (event: Json): string => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * Translates chat completion chunks, one at a time, into Responses stream events (as SSE text): created and
 * in_progress first, an output item per message and per tool call as they begin, text and argument deltas,
 * then each item done and `response.completed` (or `incomplete` when cut by the token limit).
 */
export class ResponseEventWriter {
  private readonly id = newId("resp");
  private readonly createdAt = Math.floor(Date.now() / 1000);
  private sequence = 0;
  private readonly output: Json[] = [];
  private message: { index: number; id: string; text: string } | undefined;
  private reasoning: { index: number; id: string; text: string; done: boolean } | undefined;
  private readonly calls = new Map<
    number,
    { index: number; id: string; callId: string; name: string; args: string }
  >();
  private usage: Json | null = null;
  private finishReason: string | null = null;
  private finished = false;

  constructor(private readonly echo: ResponseEcho) {}

  private event(type: string, fields: Json): string {
    return sse({ type, sequence_number: this.sequence++, ...fields });
  }

  private snapshot(status: string): Json {
    return responseObject(this.id, this.createdAt, this.echo, {
      status,
      output: this.output,
      usage: this.usage,
      finishReason: this.finishReason,
    });
  }

  start(): string {
    const response = this.snapshot("in_progress");
    return this.event("response.created", { response }) + this.event("response.in_progress", { response });
  }

  /** One chat chunk (parsed JSON of a `data:` line). */
  chunk(chunk: unknown): string {
    if (!isObject(chunk)) return "";
    if (isObject(chunk.error)) return this.fail(chunk.error);
    let out = "";
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = Array.isArray(chunk.choices) ? (chunk.choices[0] as Json | undefined) : undefined;
    if (!choice) return out;
    const delta = isObject(choice.delta) ? choice.delta : {};
    const reasoning = reasoningOf(delta);
    if (reasoning) out += this.reasoningDelta(reasoning);
    else if (this.reasoning && (delta.content || delta.tool_calls)) out += this.reasoningDone();
    if (typeof delta.content === "string" && delta.content !== "") {
      if (!this.message) {
        this.message = { index: this.output.length, id: newId("msg"), text: "" };
        const item = messageItem(this.message.id, "", "in_progress");
        item.content = [];
        this.output.push(item);
        out += this.event("response.output_item.added", { output_index: this.message.index, item });
        out += this.event("response.content_part.added", {
          item_id: this.message.id,
          output_index: this.message.index,
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [] },
        });
      }
      this.message.text += delta.content;
      out += this.event("response.output_text.delta", {
        item_id: this.message.id,
        output_index: this.message.index,
        content_index: 0,
        delta: delta.content,
        logprobs: [],
      });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const part of delta.tool_calls as Json[]) {
        const key = typeof part.index === "number" ? part.index : this.calls.size;
        const fn = isObject(part.function) ? part.function : {};
        let call = this.calls.get(key);
        if (!call) {
          call = {
            index: this.output.length,
            id: newId("fc"),
            callId: typeof part.id === "string" ? part.id : newId("call"),
            name: typeof fn.name === "string" ? fn.name : "",
            args: "",
          };
          this.calls.set(key, call);
          const item = functionCallItem(call.id, call.callId, call.name, "", "in_progress");
          this.output.push(item);
          out += this.event("response.output_item.added", { output_index: call.index, item });
        }
        if (typeof fn.arguments === "string" && fn.arguments !== "") {
          call.args += fn.arguments;
          out += this.event("response.function_call_arguments.delta", {
            item_id: call.id,
            output_index: call.index,
            delta: fn.arguments,
          });
        }
      }
    }
    if (typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
    return out;
  }

  /** Reasoning text as it streams: its item (first in the output, as OpenAI's models give it), then deltas. */
  private reasoningDelta(text: string): string {
    let out = "";
    if (!this.reasoning) {
      this.reasoning = { index: this.output.length, id: newId("rs"), text: "", done: false };
      const item = { ...reasoningItem(this.reasoning.id, "", "in_progress"), content: [] };
      this.output.push(item);
      out += this.event("response.output_item.added", { output_index: this.reasoning.index, item });
      out += this.event("response.content_part.added", {
        item_id: this.reasoning.id,
        output_index: this.reasoning.index,
        content_index: 0,
        part: { type: "reasoning_text", text: "" },
      });
    }
    if (this.reasoning.done) return out; // reasoning after the answer began: not an item of its own
    this.reasoning.text += text;
    return (
      out +
      this.event("response.reasoning_text.delta", {
        item_id: this.reasoning.id,
        output_index: this.reasoning.index,
        content_index: 0,
        delta: text,
      })
    );
  }

  /** The reasoning item's done events: once the answer begins, or at the end. */
  private reasoningDone(): string {
    const reasoning = this.reasoning;
    if (!reasoning || reasoning.done) return "";
    reasoning.done = true;
    const { index, id, text } = reasoning;
    const item = reasoningItem(id, text, "completed");
    this.output[index] = item;
    return (
      this.event("response.reasoning_text.done", {
        item_id: id,
        output_index: index,
        content_index: 0,
        text,
      }) +
      this.event("response.content_part.done", {
        item_id: id,
        output_index: index,
        content_index: 0,
        part: { type: "reasoning_text", text },
      }) +
      this.event("response.output_item.done", { output_index: index, item })
    );
  }

  /** The provider's stream ended (with `[DONE]` or not): every item done, then the final event. */
  end(): string {
    if (this.finished) return "";
    this.finished = true;
    let out = this.reasoningDone();
    if (this.message) {
      const { index, id, text } = this.message;
      const part = { type: "output_text", text, annotations: [] };
      out += this.event("response.output_text.done", {
        item_id: id,
        output_index: index,
        content_index: 0,
        text,
        logprobs: [],
      });
      out += this.event("response.content_part.done", {
        item_id: id,
        output_index: index,
        content_index: 0,
        part,
      });
      const item = messageItem(id, text, "completed");
      this.output[index] = item;
      out += this.event("response.output_item.done", { output_index: index, item });
    }
    for (const call of this.calls.values()) {
      out += this.event("response.function_call_arguments.done", {
        item_id: call.id,
        output_index: call.index,
        name: call.name,
        arguments: call.args,
      });
      const item = functionCallItem(call.id, call.callId, call.name, call.args, "completed");
      this.output[call.index] = item;
      out += this.event("response.output_item.done", { output_index: call.index, item });
    }
    const response = this.snapshot("completed");
    return (
      out +
      this.event(response.status === "incomplete" ? "response.incomplete" : "response.completed", {
        response,
      })
    );
  }

  /** The provider's stream broke off or sent an error: an `error` event, then `response.failed`. */
  fail(error: Json | string): string {
    if (this.finished) return "";
    this.finished = true;
    const message =
      typeof error === "string"
        ? error
        : typeof error.message === "string"
          ? error.message
          : "The provider failed";
    const code =
      typeof error === "string" ? "provider_error" : String(error.code ?? error.type ?? "provider_error");
    // A failed Response's error code is one of OpenAI's own (the clients' types list them); the `error` event
    // keeps the provider's.
    const responseCode = code.includes("rate_limit") ? "rate_limit_exceeded" : "server_error";
    const response = { ...this.snapshot("failed"), error: { code: responseCode, message } };
    return this.event("error", { code, message, param: null }) + this.event("response.failed", { response });
  }
}
