/**
 * In-process stream parsing cost, no network: the same SSE bytes (a chat stream) through raw-fetch-style
 * parsing and through chatCompletionStream with a `fetch` answering from memory. Isolates what the client
 * adds per event from the socket and the server.
 * Usage: node --conditions=source --import tsx inference/stream-parse.ts [events] [eventsPerChunk] [rounds]
 */
import { chatCompletionStream } from "@modelhub/inference";
import { median } from "./measure.js";

const events = Number(process.argv[2] ?? 100_000);
const perChunk = Number(process.argv[3] ?? 16);
const encoder = new TextEncoder();
const event = `data: ${JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: "bench-model",
  choices: [{ index: 0, delta: { content: "tok " }, finish_reason: null }],
})}\n\n`;
const chunks: Uint8Array[] = [];
for (let sent = 0; sent < events; sent += perChunk) chunks.push(encoder.encode(event.repeat(perChunk)));
chunks.push(encoder.encode("data: [DONE]\n\n"));

function body(): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

async function raw(): Promise<number> {
  const reader = body().getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let count = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return count;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const data = buffer.slice(6, end);
      buffer = buffer.slice(end + 2);
      if (data === "[DONE]") return count;
      JSON.parse(data);
      count++;
      end = buffer.indexOf("\n\n");
    }
  }
}

async function modelhub(): Promise<number> {
  let count = 0;
  const stream = chatCompletionStream(
    {
      endpointUrl: "http://bench.invalid",
      model: "bench-model",
      messages: [{ role: "user", content: "Hi" }],
    },
    { fetch: async () => new Response(body(), { headers: { "content-type": "text/event-stream" } }) },
  );
  for await (const _ of stream) count++;
  return count;
}

const clients: Record<string, () => Promise<number>> = {
  "raw fetch parsing": raw,
  "@modelhub/inference": modelhub,
};
const rounds = Number(process.argv[4] ?? 15);
const samples = new Map<string, number[]>(Object.keys(clients).map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, run] of Object.entries(clients)) {
    const cpu = process.cpuUsage();
    const count = await run();
    const used = process.cpuUsage(cpu);
    samples.get(name)!.push(((used.user + used.system) * 1000) / count);
  }
}
const baseline = median(samples.get("raw fetch parsing")!);
console.log(`${events} events, ${perChunk} per chunk, CPU ns per event, median of ${rounds} rounds`);
for (const [name, values] of samples) {
  const ns = median(values);
  console.log(`  ${name.padEnd(24)} ${ns.toFixed(0).padStart(6)} ns   ${(ns / baseline).toFixed(3)}x`);
}
