/**
 * Bytes the client's own code allocates per non-streamed chat call: a fetch answering from memory (no
 * undici, no socket), the young generation made large enough that no collection runs while measuring, and
 * heap growth over 2000 calls. Deterministic to a few bytes, unlike timings. Run in its own process by
 * run.ts (it needs V8 flags); standalone: node --expose-gc --max-semi-space-size=512
 * --min-semi-space-size=256 --conditions=source --import tsx inference/allocation.ts
 */
import { chatCompletion } from "@modelhub/inference";

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

const base = "http://127.0.0.1:1";
const MESSAGES = [{ role: "user" as const, content: "Hello" }];
const clients: Array<[string, () => Promise<unknown>]> = [
  [
    "raw fetch",
    async () => {
      const res = await fetch(`${base}/v1/chat/completions`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer bench-key" },
        body: JSON.stringify({ model: "bench-model", messages: MESSAGES, max_tokens: 16 }),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const json = (await res.json()) as typeof COMPLETION;
      return json.choices[0]!.message.content;
    },
  ],
  [
    "@modelhub/inference",
    async () => {
      const out = await chatCompletion({
        endpointUrl: base,
        model: "bench-model",
        accessToken: "bench-key",
        messages: MESSAGES,
        max_tokens: 16,
      });
      return out.choices[0]!.message.content;
    },
  ],
];

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const CALLS = 2000;
for (const [name, call] of clients) {
  for (let i = 0; i < 20_000; i++) await call();
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < CALLS; i++) await call();
  const bytes = (process.memoryUsage().heapUsed - before) / CALLS;
  console.log(`  ${name.padEnd(24)} ${bytes.toFixed(0)} bytes`);
}
