/**
 * Bytes the client's own code allocates per non-streamed chat call: a fetch answering from memory (no
 * undici, no socket), the young generation made large enough that no collection runs while measuring, and
 * heap growth over 2000 calls. Repeatable to ~100 bytes, unlike timings. Run in its own process by
 * run.ts (it needs V8 flags); standalone: node --expose-gc --max-semi-space-size=512
 * --min-semi-space-size=256 --conditions=source --import tsx inference/allocation.ts
 */
import { makeClients } from "./clients.js";

const COMPLETION = {
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "bench-model",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello!" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
};
// The same answer object every time: what is measured is the client's code, not the response's parsing.
const answer = {
  ok: true,
  status: 200,
  headers: { get: (_name: string) => "application/json" },
  json: () => Promise.resolve(COMPLETION),
} as unknown as Response;
globalThis.fetch = (() => Promise.resolve(answer)) as typeof fetch;

// The bench's own raw fetch and @modelhub/inference clients: the same calls as the timed tables.
const clients = makeClients("http://127.0.0.1:1").slice(0, 2);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const CALLS = 2000;
for (const { name, chat } of clients) {
  for (let i = 0; i < 20_000; i++) await chat();
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < CALLS; i++) await chat();
  const bytes = (process.memoryUsage().heapUsed - before) / CALLS;
  console.log(`  ${name.padEnd(24)} ${bytes.toFixed(0)} bytes`);
}
