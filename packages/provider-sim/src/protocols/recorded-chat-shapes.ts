import { recordedExchanges } from "../recorded-traffic.js";
import { recordedEvents } from "../replay.js";

/**
 * Each provider's own chat shapes, taken from its recorded replies: the extra fields it adds (Together's
 * `seed` and `text`, Novita's `content_filter_results`, Cerebras' `time_info`, Hyperbolic's usage in every
 * chunk...), its finish reasons (`eos`, `eos_token`). Synthesized replies are built on these templates, so
 * clients meet every provider's quirks; providers with no recording get the plain OpenAI shapes.
 */
export interface ChatShapes {
  completion?: Record<string, unknown>;
  roleChunk?: Record<string, unknown>;
  contentChunk?: Record<string, unknown>;
  finishChunk?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const cache = new Map<string, ChatShapes>();

function parse(text: string): Json | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

export function firstChoice(value: Json): Json | undefined {
  const choices = value.choices;
  return Array.isArray(choices) && choices[0] && typeof choices[0] === "object"
    ? (choices[0] as Json)
    : undefined;
}

function delta(chunk: Json): Json | undefined {
  const value = firstChoice(chunk)?.delta;
  return value && typeof value === "object" ? (value as Json) : undefined;
}

export function recordedChatShapes(provider: string): ChatShapes {
  let shapes = cache.get(provider);
  if (shapes) return shapes;
  shapes = {};
  const chats = recordedExchanges().filter(
    (exchange) =>
      exchange.provider === provider &&
      exchange.status === 200 &&
      exchange.path.endsWith("/chat/completions"),
  );
  const completions = chats
    .filter((exchange) => exchange.responseContentType.includes("json"))
    .map((exchange) => parse(exchange.responseBody))
    .filter((value): value is Json => value !== undefined && firstChoice(value) !== undefined);
  shapes.completion = completions.find((value) => value.object === "chat.completion") ?? completions[0];
  const stream = chats.find((exchange) => exchange.responseContentType.includes("event-stream"));
  if (stream) {
    const chunks = recordedEvents(stream.responseBody)
      .events.map(parse)
      .filter((value): value is Json => value !== undefined && firstChoice(value) !== undefined);
    shapes.roleChunk = chunks[0];
    shapes.contentChunk = chunks.find((chunk) => {
      const content = delta(chunk)?.content;
      return typeof content === "string" && content !== "" && !firstChoice(chunk)?.finish_reason;
    });
    shapes.finishChunk = [...chunks].reverse().find((chunk) => firstChoice(chunk)?.finish_reason);
  }
  cache.set(provider, shapes);
  return shapes;
}
