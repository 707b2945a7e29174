/**
 * In-process stream parsing cost, no socket and no server: the same SSE bytes (a chat stream, in chunks of
 * the size undici hands out on loopback) through raw-fetch-style parsing and through chatCompletionStream
 * with a `fetch` answering from memory. What the client adds per event, without the network's noise.
 * Standalone: node --conditions=source --import tsx inference/stream-parse.ts [events] [eventsPerChunk] [rounds]
 */
import { chatCompletionStream } from "@modelhub/inference";
import { countRawEvents } from "./clients.js";
import { median } from "./measure.js";

const EVENT = `data: ${JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: "bench-model",
  choices: [{ index: 0, delta: { content: "tok " }, finish_reason: null }],
})}\n\n`;

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

async function modelhub(body: ReadableStream<Uint8Array>): Promise<number> {
  let count = 0;
  const stream = chatCompletionStream(
    {
      endpointUrl: "http://bench.invalid",
      model: "bench-model",
      messages: [{ role: "user", content: "Hi" }],
    },
    { fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }) },
  );
  for await (const _ of stream) count++;
  return count;
}

/** CPU ns per event of each, median of `rounds` interleaved rounds. */
export async function streamParseCost(
  events: number,
  perChunk: number,
  rounds: number,
): Promise<Map<string, number>> {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (let sent = 0; sent < events; sent += perChunk) chunks.push(encoder.encode(EVENT.repeat(perChunk)));
  chunks.push(encoder.encode("data: [DONE]\n\n"));
  const clients = { "raw fetch parsing": countRawEvents, "@modelhub/inference": modelhub };
  const samples = new Map<string, number[]>(Object.keys(clients).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(clients)) {
      const cpu = process.cpuUsage();
      const count = await run(streamOf(chunks));
      const used = process.cpuUsage(cpu);
      samples.get(name)!.push(((used.user + used.system) * 1000) / count);
    }
  }
  return new Map([...samples].map(([name, values]) => [name, median(values)]));
}

export function printStreamParseCost(costs: Map<string, number>): void {
  const baseline = costs.get("raw fetch parsing")!;
  for (const [name, ns] of costs) {
    console.log(`  ${name.padEnd(24)} ${ns.toFixed(0).padStart(6)} ns   ${(ns / baseline).toFixed(3)}x`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const events = Number(process.argv[2] ?? 100_000);
  const perChunk = Number(process.argv[3] ?? 100);
  const rounds = Number(process.argv[4] ?? 15);
  console.log(`${events} events, ${perChunk} per chunk, CPU ns per event, median of ${rounds} rounds`);
  printStreamParseCost(await streamParseCost(events, perChunk, rounds));
}
