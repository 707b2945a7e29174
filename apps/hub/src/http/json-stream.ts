import type { Context } from "hono";

/**
 * A JSON array response written a batch of items at a time, as the client reads it: a large page never
 * sits in memory as one string, and the event loop serves other requests between batches.
 */
export function streamJsonArray<T>(
  c: Context,
  items: readonly T[],
  view: (item: T) => unknown,
  batchSize = 25,
): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const end = Math.min(items.length, next + batchSize);
        let text = next === 0 ? "[" : "";
        for (; next < end; next++) text += (next > 0 ? "," : "") + JSON.stringify(view(items[next]!));
        if (next >= items.length) {
          controller.enqueue(encoder.encode(`${text}]`));
          controller.close();
        } else controller.enqueue(encoder.encode(text));
      },
    },
    // Nothing is made ahead of the reader.
    { highWaterMark: 0 },
  );
  return c.body(stream, 200, { "Content-Type": "application/json; charset=UTF-8" });
}
