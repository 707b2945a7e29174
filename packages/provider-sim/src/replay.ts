import type { ServerResponse } from "node:http";
import type { SimContext } from "./context.js";
import { sendText } from "./http.js";
import { MEDIA_CONTENT_TYPES, mediaBytes, mediaKindForContentType } from "./media.js";
import { fillSimUrl, type RecordedExchange } from "./recorded-traffic.js";
import { writeSse } from "./sse.js";

/** The `data:` payloads of a recorded SSE body, in order, without the final `[DONE]`. */
export function recordedEvents(body: string): { events: string[]; prefix: string; done: boolean } {
  const blocks = body.split(/\r?\n\r?\n/).filter((block) => block.trim() !== "");
  const prefix = blocks[0]?.startsWith("data: ") ? "data: " : "data:";
  const events: string[] = [];
  let done = false;
  for (const block of blocks) {
    const payload = block.replace(/^data: ?/, "");
    if (payload.trim() === "[DONE]") done = true;
    else events.push(payload);
  }
  return { events, prefix, done };
}

/** Answers with a recorded exchange: status, content type, body (streams event by event, media synthesized). */
export async function replayExchange(
  exchange: RecordedExchange,
  res: ServerResponse,
  context: SimContext,
): Promise<void> {
  const headers = { ...exchange.responseHeaders, "x-sim-replayed": exchange.id };
  if (exchange.responseContentType.includes("text/event-stream") && exchange.status === 200) {
    const { events, prefix, done } = recordedEvents(fillSimUrl(exchange.responseBody, context.simUrl));
    await writeSse(res, context, events, {
      dataPrefix: prefix,
      done,
      contentType: exchange.responseContentType,
      headers,
    });
    return;
  }
  const media =
    exchange.responseBody === "" ? mediaKindForContentType(exchange.responseContentType) : undefined;
  if (media) {
    sendText(res, exchange.status, mediaBytes(media), {
      ...headers,
      "content-type": MEDIA_CONTENT_TYPES[media],
    });
    return;
  }
  sendText(res, exchange.status, fillSimUrl(exchange.responseBody, context.simUrl), {
    ...headers,
    "content-type": exchange.responseContentType || "application/json",
  });
}
