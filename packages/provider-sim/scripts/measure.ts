/**
 * Figures for the README: chat requests per second (sequential and 32 in flight) and a 100k-chunk stream
 * (time, throughput, memory), measured on loopback with node:http as the client.
 *
 *   node --conditions=source --import tsx packages/provider-sim/scripts/measure.ts
 */
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { startProviderSim } from "../src/server.js";

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const sim = await startProviderSim();

// The floor: a bare node:http server that reads the body and answers a fixed chat completion.
const fixedReply = JSON.stringify({
  id: "x",
  object: "chat.completion",
  choices: [{ message: { content: "hi" } }],
});
const bare = createServer((incoming, res) => {
  incoming.resume();
  incoming.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(fixedReply);
  });
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "Hello there" }] });

function post(
  path: string,
  payload: string,
  headers: Record<string, string> = {},
  base = sim.url,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${base}${path}`,
      {
        method: "POST",
        agent,
        headers: { authorization: "Bearer hf_bench", "content-type": "application/json", ...headers },
      },
      (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve(bytes));
        res.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

async function chatRate(inFlight: number, total: number, base = sim.url): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < total) await post("/together/v1/chat/completions", body, {}, base);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

async function stream(chunks: number, batchBytes = 0) {
  const streamBody = JSON.stringify({
    model: "m",
    stream: true,
    messages: [{ role: "user", content: "Hi" }],
  });
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const bytes = await post("/together/v1/chat/completions", streamBody, {
    "x-sim-stream-chunks": String(chunks),
    ...(batchBytes ? { "x-sim-stream-batch-bytes": String(batchBytes) } : {}),
  });
  const ms = performance.now() - started;
  return {
    ms,
    mbPerS: bytes / 1e6 / (ms / 1000),
    rssGrowthMb: (process.memoryUsage().rss - rssBefore) / 1e6,
  };
}

await chatRate(4, 500); // warm-up
await chatRate(4, 500, bareUrl);
const sequential = await chatRate(1, 3000);
const bareSequential = await chatRate(1, 3000, bareUrl);
const parallel = await chatRate(32, 6000);
const bareParallel = await chatRate(32, 6000, bareUrl);
await stream(10_000);
const perEvent = await stream(100_000);
const batched = await stream(100_000, 16_384);
const fmt = (n: number) => n.toFixed(0);
process.stdout.write(
  [
    `chat, sequential:        ${fmt(sequential)} req/s (bare node:http: ${fmt(bareSequential)}, ratio ${(bareSequential / sequential).toFixed(2)})`,
    `chat, 32 in flight:      ${fmt(parallel)} req/s (bare node:http: ${fmt(bareParallel)}, ratio ${(bareParallel / parallel).toFixed(2)})`,
    `100k-chunk stream:       ${fmt(perEvent.ms)} ms (${perEvent.mbPerS.toFixed(1)} MB/s), RSS growth ${perEvent.rssGrowthMb.toFixed(1)} MB`,
    `100k-chunk stream, 16 KB writes: ${fmt(batched.ms)} ms (${batched.mbPerS.toFixed(1)} MB/s)`,
    "",
  ].join("\n"),
);
agent.destroy();
bare.close();
await sim.close();
