/**
 * Where the client's per-call bytes are allocated, by function: V8's sampling heap profiler (kept samples
 * of objects collected since, so it counts everything allocated, not what survives) over chat calls against
 * the same in-memory fetch as allocation.ts. Names the functions a cut of allocation.ts's figure must touch.
 * Usage: node --conditions=source --import tsx inference/allocation-profile.ts [calls] [client index: 1]
 */
import { Session } from "node:inspector/promises";
import { makeClients } from "./clients.js";
import { COMPLETION } from "./completion.js";

const PARSED = JSON.parse(COMPLETION) as unknown;
const answer = {
  ok: true,
  status: 200,
  headers: { get: (_name: string) => "application/json" },
  json: () => Promise.resolve(PARSED),
} as unknown as Response;
globalThis.fetch = (() => Promise.resolve(answer)) as typeof fetch;

interface SampleNode {
  id: number;
  selfSize: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: SampleNode[];
}

const calls = Number(process.argv[2] ?? 200_000);
const client = makeClients("http://127.0.0.1:1")[Number(process.argv[3] ?? 1)]!;
for (let i = 0; i < 20_000; i++) await client.chat();

const session = new Session();
session.connect();
await session.post("HeapProfiler.startSampling", {
  samplingInterval: 256,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < calls; i++) await client.chat();
const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as {
  profile: { head: SampleNode; samples: Array<{ size: number; nodeId: number }> };
};

// Bytes by node id from the samples (each sample stands for `size` bytes of allocation around it).
const bytesById = new Map<number, number>();
for (const sample of profile.samples)
  bytesById.set(sample.nodeId, (bytesById.get(sample.nodeId) ?? 0) + sample.size);
const byFunction = new Map<string, number>();
const walk = (node: SampleNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(packages|bench|node_modules)\//, "$1/")}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + (bytesById.get(node.id) ?? 0));
  for (const child of node.children) walk(child);
};
walk(profile.head);
const total = [...byFunction.values()].reduce((a, b) => a + b, 0);
console.log(`${client.name}: ${(total / calls).toFixed(0)} bytes sampled per call (${calls} calls)`);
for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
  if (bytes / calls < 8) break;
  console.log(`  ${(bytes / calls).toFixed(0).padStart(6)} B  ${name}`);
}
