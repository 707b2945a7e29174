import { availableParallelism, loadavg } from "node:os";
import { Pool } from "undici";
import { buildAsNpmStart } from "../npm-start-hub.js";
import { median, percentile } from "./load.js";
import { HUB_ROOT, type Side, startSet } from "./servers.js";

const CALLS = Number(process.env.CHUNKS_CALLS ?? 40);
const CONCURRENCY = Number(process.env.CHUNKS_CONCURRENCY ?? 64);
const PACE = process.env.BENCH_PACE ?? "150-400:30-80";

interface ChunkTimes {
  headMs: number;
  /** Arrival of each chunk, from the call's start. */
  chunksMs: number[];
  endMs: number;
}

async function timeCall(pool: Pool, side: Side, seed: number): Promise<ChunkTimes> {
  const started = performance.now();
  const answer = await pool.request({
    method: "POST",
    path: side.path,
    headers: side.headers,
    body: side.body(seed, true),
  });
  const headMs = performance.now() - started;
  if (answer.statusCode !== 200) {
    throw new Error(`${side.label}: ${answer.statusCode} ${(await answer.body.text()).slice(0, 300)}`);
  }
  const chunksMs: number[] = [];
  for await (const _chunk of answer.body) chunksMs.push(performance.now() - started);
  return { headMs, chunksMs, endMs: performance.now() - started };
}

async function timeCalls(side: Side, concurrency: number): Promise<ChunkTimes[]> {
  const pool = new Pool(side.server.url, { connections: concurrency, pipelining: 1 });
  try {
    // Warm-up (JIT, keep-alive connections to the provider), not counted.
    await Promise.all(Array.from({ length: concurrency }, (_, i) => timeCall(pool, side, 10_000 + i)));
    const times: ChunkTimes[] = new Array(CALLS);
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let index = next++; index < CALLS; index = next++)
          times[index] = await timeCall(pool, side, index);
      }),
    );
    return times;
  } finally {
    await pool.close();
  }
}

const fmt = (value: number) => value.toFixed(2);

function report(label: string, times: ChunkTimes[], base?: ChunkTimes[]) {
  const gaps = times.flatMap((t) => t.chunksMs.slice(1).map((at, i) => at - t.chunksMs[i]!));
  const row = [
    label,
    fmt(median(times.map((t) => t.headMs))),
    fmt(median(times.map((t) => t.chunksMs[0] ?? t.endMs))),
    fmt(median(times.map((t) => (t.chunksMs[0] ?? t.endMs) - t.headMs))),
    fmt(median(gaps)),
    fmt(percentile(gaps, 0.99)),
    fmt(median(times.map((t) => t.endMs))),
    fmt(median(times.map((t) => t.chunksMs.length))),
  ];
  if (base) {
    // Call for call (same seed, same pace): this side's first chunk and end minus the bare proxy's.
    const first = times.map((t, i) => (t.chunksMs[0] ?? t.endMs) - (base[i]!.chunksMs[0] ?? base[i]!.endMs));
    const end = times.map((t, i) => t.endMs - base[i]!.endMs);
    row.push(`${fmt(median(first))} (p90 ${fmt(percentile(first, 0.9))})`, fmt(median(end)));
  } else row.push("", "");
  return `| ${row.join(" | ")} |`;
}

async function main() {
  // As `npm start` does: build what is stale, then run the built server.
  buildAsNpmStart(HUB_ROOT);
  const set = await startSet(PACE, { withHonoProxy: true });
  try {
    const proxy = set.sides.hosted[1];
    const others = [...(set.honoProxy ? [set.honoProxy] : []), set.sides.hosted[0], set.sides.own[0]];
    const out = [
      `## chunk times (${availableParallelism()} CPUs, load average ${loadavg()
        .map((v) => v.toFixed(2))
        .join(" ")}, pace ${PACE})`,
      "",
    ];
    for (const concurrency of [1, CONCURRENCY].filter((c) => c > 0)) {
      const proxyTimes = await timeCalls(proxy, concurrency);
      out.push(
        `### ${CALLS} streamed calls, ${concurrency} in flight (medians, ms)`,
        "",
        "| side | head | first chunk | head to first chunk | between chunks | between chunks p99 | end | reads | first chunk − proxy's | end − proxy's |",
        "|---|---|---|---|---|---|---|---|---|---|",
        report(proxy.label, proxyTimes),
      );
      for (const side of others) out.push(report(side.label, await timeCalls(side, concurrency), proxyTimes));
      out.push(
        "",
        `load average now: ${loadavg()
          .map((v) => v.toFixed(2))
          .join(" ")}`,
        "",
      );
    }
    process.stdout.write(`${out.join("\n")}\n`);
  } finally {
    await set.stop();
  }
}

await main();
