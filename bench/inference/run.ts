/**
 * bench:inference — raw fetch, @modelhub/inference, @huggingface/inference and the openai client side by
 * side in one run, against a minimal OpenAI-compatible server on loopback (its own process).
 * Goals (issue 41): chat within 1.05x raw fetch sequential and 32 in flight, streamed within 1.10x, and never
 * behind @huggingface/inference on any of the three (the closing "Goals" lines); memory flat over a
 * 100k-chunk stream, chat-only bundle < 10 KB gzipped, import < 10 ms. Also: what the client's own code
 * allocates per chat call.
 * Usage: npm run bench:inference -w bench [-- --quick]
 */
import { execFileSync } from "node:child_process";
import { CHECKED_FETCH, makeClients } from "./clients.js";
import {
  concurrent,
  interleaved,
  median,
  type PerCallSample,
  pairedWallRatios,
  perCallInterleaved,
  perCallTable,
  sequential,
  table,
} from "./measure.js";
import { bundleSizes, importTimes } from "./size-and-import.js";
import { startServer } from "./start-server.js";
import { printStreamParseCost, streamParseCost } from "./stream-parse.js";

const quick = process.argv.includes("--quick");
const scale = quick ? 0.2 : 1;
const n = (count: number) => Math.max(10, Math.round(count * scale));

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function main(): Promise<void> {
  const { base, stop, serverUsage } = await startServer();
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
    const withControl = [...clients, { ...clients[0]!, name: CONTROL }];
    const calls = n(6000);
    const run = Number(process.env.BENCH_RUN_LENGTH ?? 10);
    const sequentialCalls = await perCallInterleaved(withControl, calls, run, (c) => c.chat());
    perCallTable(
      `Non-streamed chat, sequential (${calls} calls per client, in turns of ${run} calls), per call`,
      sequentialCalls,
    );
    // Many short interleaved rounds rather than a few long ones: a burst of other work on a shared machine
    // then spoils a few samples of every client, and each client's median steps over them. At 32 in
    // flight the client and the server together keep both cores busy, so the wall clock follows the two
    // processes' CPU, and the server's depends on how many requests each of its wake-ups finds: the
    // server's CPU per request is measured too (over IPC, outside the socket).
    const inFlightRounds = 41;
    const inFlight = await interleaved(withControl, inFlightRounds, async (c) => {
      const before = await serverUsage();
      const sample = await concurrent(() => c.chat(), n(300), 32);
      const after = await serverUsage();
      return { ...sample, serverCpuMs: (after.cpuMicros - before.cpuMicros) / 1000 / sample.window.count };
    });
    table(
      `Non-streamed chat, 32 in flight (${n(300)} requests x ${inFlightRounds} rounds), wall clock per request ("paired": median of each round over raw fetch's round in the same cycle)`,
      inFlight,
    );
    const streamed = await interleaved(withControl, 33, (c) => sequential(() => c.stream(1000), n(10)));
    table(`Streamed chat (${n(10)} streams of 1000 chunks x 33 rounds), per stream`, streamed);
    printGoals([
      { name: "sequential, median call", goal: 1.05, ratios: medianCallRatios(sequentialCalls) },
      { name: "32 in flight, wall", goal: 1.05, ratios: pairedWallRatios(inFlight) },
      { name: "streamed, wall", goal: 1.1, ratios: pairedWallRatios(streamed) },
    ]);
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

const OURS = "@modelhub/inference";
const CONTROL = "raw fetch (control)";
const PEER = "@huggingface/inference";

/** Each client's median single call over raw fetch's. */
function medianCallRatios(results: Map<string, PerCallSample>): Map<string, number> {
  const base = median(Array.from(results.get("raw fetch")!.wallMs));
  return new Map([...results].map(([name, { wallMs }]) => [name, median(Array.from(wallMs)) / base]));
}

/** One line per goal: our ratio and the peer's, and whether ours is within the goal and not behind the peer. */
function printGoals(goals: Array<{ name: string; goal: number; ratios: Map<string, number> }>): void {
  console.log(`\nGoals (ratio to raw fetch; ${OURS} within the goal and not behind ${PEER})`);
  for (const { name, goal, ratios } of goals) {
    const ours = ratios.get(OURS)!;
    const peer = ratios.get(PEER)!;
    const control = ratios.get(CONTROL);
    const verdict = ours <= goal && ours <= peer ? "met" : "NOT MET";
    // The control (raw fetch again) shows how far identical code lands from raw fetch in this run.
    const noise = control === undefined ? "" : `  (control ${control.toFixed(3)}x)`;
    console.log(
      `  ${name.padEnd(24)} ours ${ours.toFixed(3)}x  peer ${peer.toFixed(3)}x  goal <= ${goal.toFixed(2)}x  ${verdict}${noise}`,
    );
  }
  // What a client that checks its answer pays at least: raw fetch plus the status, content-type and shape
  // checks (CHECKED_FETCH), and each library over that floor: the part of its gap that is its own choice.
  console.log(
    `\nOver the floor of a checking client (${CHECKED_FETCH}: raw fetch + status, content-type, shape checks)`,
  );
  for (const { name, ratios } of goals) {
    const floor = ratios.get(CHECKED_FETCH)!;
    const over = (client: string) => `${(ratios.get(client)! / floor).toFixed(3)}x`;
    console.log(
      `  ${name.padEnd(24)} floor ${floor.toFixed(3)}x raw fetch   ours ${over(OURS)} of it   peer ${over(PEER)} of it`,
    );
  }
}

await main();
