/**
 * Where a profile's time went: `node --import tsx bench/cpu-profile-summary.ts <file.cpuprofile> [top]` prints
 * the self time of the heaviest functions and the total per package or module (node:internal, a
 * node_modules package, or a hub source file), from a `node --cpu-prof` profile (BENCH_CPU_PROF=<dir> makes
 * the benchmarks' hub write one). `[from] [to]`, in seconds since the profile started, keep only the samples
 * of that window (a benchmark's phases: bench:repos prints where each starts).
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package or module a function belongs to, for the per-module totals. */
function moduleOf(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return url.split("/").slice(0, 2).join("/");
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1]!;
  const hub = /apps\/hub\/dist\/(.*)$/.exec(url);
  return hub ? `hub ${hub[1]}` : url;
}

const [file, topArgument, fromArgument, toArgument] = process.argv.slice(2);
if (!file) throw new Error("usage: cpu-profile-summary.ts <file.cpuprofile> [top]");
const top = Number(topArgument ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const fromUs = Number(fromArgument ?? 0) * 1e6;
const toUs = toArgument === undefined ? Number.POSITIVE_INFINITY : Number(toArgument) * 1e6;
const selfMs = new Map<number, number>();
let atUs = 0;
profile.samples.forEach((id, i) => {
  atUs += profile.timeDeltas[i] ?? 0;
  if (atUs < fromUs || atUs >= toUs) return;
  selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});
const total = [...selfMs.values()].reduce((sum, ms) => sum + ms, 0);
const idle = [...selfMs]
  .filter(([id]) => byId.get(id)!.callFrame.functionName === "(idle)")
  .reduce((s, [, ms]) => s + ms, 0);
const busy = total - idle;

const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
const functions = new Map<string, number>();
const modules = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  if (functionName === "(idle)") continue;
  add(functions, `${functionName || "(anonymous)"} ${moduleOf(url)}:${lineNumber + 1}`, ms);
  add(modules, moduleOf(url), ms);
}
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`${title}\n`);
  for (const [name, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(
      `  ${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms  ${name}\n`,
    );
  }
};
process.stdout.write(`${file}: ${busy.toFixed(0)} ms busy of ${total.toFixed(0)} ms sampled\n`);
show("self time by module", modules);
show("self time by function", functions);
