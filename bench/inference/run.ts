/**
 * bench:inference — raw fetch, @modelhub/inference, @huggingface/inference and the openai client side by
 * side in one run, against a minimal OpenAI-compatible server on loopback (its own process).
 * Goals: chat within 1.05x raw fetch (sequential and 32 in flight), stream within 1.15x, memory flat over a
 * 100k-chunk stream, chat-only bundle < 10 KB gzipped, import < 10 ms. Also: what the client's own code
 * allocates per chat call.
 * Usage: npm run bench:inference -w bench [-- --quick]
 */
import { execFileSync, fork } from "node:child_process";
import { makeClients } from "./clients.js";
import { concurrent, interleaved, perCallInterleaved, perCallTable, sequential, table } from "./measure.js";
import { bundleSizes, importTimes } from "./size-and-import.js";
import { printStreamParseCost, streamParseCost } from "./stream-parse.js";

const quick = process.argv.includes("--quick");
const scale = quick ? 0.2 : 1;
const n = (count: number) => Math.max(10, Math.round(count * scale));

async function startServer(): Promise<{ base: string; stop: () => void }> {
  const child = fork(new URL("./server.ts", import.meta.url).pathname, [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.disconnect() };
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function main(): Promise<void> {
  const { base, stop } = await startServer();
  try {
    const clients = makeClients(base);
    console.log(`bench:inference on ${base} (node ${process.version}${quick ? ", quick" : ""})`);
    for (const client of clients) {
      // Warm-up: JIT, connection pools, and a check that every client works. undici's fetch keeps getting
      // faster for a few thousand requests; measuring before that favours whichever client runs later.
      for (let i = 0; i < n(1000); i++) await client.chat();
      for (let i = 0; i < n(10); i++) {
        const events = await client.stream(1000);
        if (events < 1000) throw new Error(`${client.name} streamed ${events} events`);
      }
    }

    // Sequential chats: each client makes `run` calls in a row (as an application calling chat after chat
    // does), the clients take turns in a fresh shuffled order, and every call is timed on its own; the
    // quantiles over thousands of calls are the figures (see perCallInterleaved). A second raw fetch client,
    // same code, shows how far apart identical code lands in this run: the noise floor.
    const withControl = [...clients, { ...clients[0]!, name: "raw fetch (control)" }];
    const calls = n(6000);
    const run = Number(process.env.BENCH_RUN_LENGTH ?? 10);
    perCallTable(
      `Non-streamed chat, sequential (${calls} calls per client, in turns of ${run} calls), per call`,
      await perCallInterleaved(withControl, calls, run, (c) => c.chat()),
    );
    // Many short interleaved rounds rather than a few long ones: a burst of other work on a shared machine
    // then spoils a few samples of every client, and each client's median steps over them.
    table(
      `Non-streamed chat, 32 in flight (${n(500)} requests x 21 rounds), wall clock per request`,
      await interleaved(clients, 21, (c) => concurrent(() => c.chat(), n(500), 32)),
    );
    table(
      `Streamed chat (${n(10)} streams of 1000 chunks x 33 rounds), per stream`,
      await interleaved(clients, 33, (c) => sequential(() => c.stream(1000), n(10))),
    );
    const parseEvents = n(20_000);
    console.log(
      `\nStream parsing in process, no socket (${parseEvents} events in chunks of 100 x 15 rounds), client CPU per event`,
    );
    printStreamParseCost(await streamParseCost(parseEvents, 100, 15));

    const chunks = 100_000;
    console.log(`\nMemory over one ${chunks}-chunk stream (heap after GC, MB: before / during max / after)`);
    for (const client of clients) {
      const before = heapMb();
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().heapUsed / 1024 / 1024);
      }, 20);
      const start = performance.now();
      const count = await client.stream(chunks);
      const ms = performance.now() - start;
      clearInterval(sampler);
      const after = heapMb();
      console.log(
        `  ${client.name.padEnd(24)} ${before.toFixed(1)} / ${peak.toFixed(1)} / ${after.toFixed(1)}   (${count} events in ${ms.toFixed(0)} ms)`,
      );
    }
  } finally {
    stop();
  }

  console.log("\nChat-only bundle (esbuild bundle+minify, browser ESM)");
  for (const [name, size] of await bundleSizes()) {
    console.log(
      `  ${name.padEnd(24)} ${(size.minified / 1024).toFixed(1)} KB min, ${(size.gzipped / 1024).toFixed(1)} KB gzipped`,
    );
  }
  console.log("\nClient JS allocated per non-streamed chat call (fetch answering from memory, own process)");
  const allocationScript = new URL("./allocation.ts", import.meta.url).pathname;
  const v8Flags = ["--expose-gc", "--max-semi-space-size=512", "--min-semi-space-size=256"];
  const moduleFlags = ["--conditions=source", "--import", "tsx"];
  const args = [...v8Flags, ...moduleFlags, allocationScript];
  process.stdout.write(execFileSync(process.execPath, args, { encoding: "utf8" }));
  console.log("\nCold import time (fresh node process after node's ESM loader is up, median of 9)");
  for (const [name, ms] of await importTimes(9)) console.log(`  ${name.padEnd(24)} ${ms.toFixed(1)} ms`);
}

await main();
