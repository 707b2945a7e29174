/**
 * Sums a V8 CPU profile (`node --cpu-prof`) by function: self time per function, and the self time of the
 * client's own files (`packages/inference/src`) grouped by function, so a profile of a sequential run says
 * where each µs of a call went without a viewer.
 * Usage: node --import tsx inference/profile-summary.ts <file.cpuprofile> [calls] [top]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, callsArg, topArg] = process.argv.slice(2);
if (!file) throw new Error("Usage: profile-summary.ts <file.cpuprofile> [calls] [top]");
const calls = Number(callsArg ?? 0);
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const totalUs = profile.endTime - profile.startTime;

const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const where = url.replace(/^.*\/(node_modules|packages|bench)\//, "$1/");
  return `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}:${columnNumber + 1}`;
};
const sum = (filter: (node: ProfileNode) => boolean) => {
  const out = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    if (!filter(node)) continue;
    const key = label(node);
    out.set(key, (out.get(key) ?? 0) + us);
  }
  return [...out].sort((a, b) => b[1] - a[1]);
};
const perCall = (us: number) => (calls > 0 ? `${(us / calls).toFixed(2)} µs/call` : "");
const print = (title: string, rows: Array<[string, number]>) => {
  const total = rows.reduce((acc, [, us]) => acc + us, 0);
  console.log(
    `\n${title}: ${(total / 1000).toFixed(1)} ms (${((100 * total) / totalUs).toFixed(1)} %) ${perCall(total)}`,
  );
  for (const [name, us] of rows.slice(0, top))
    console.log(`  ${((100 * us) / totalUs).toFixed(2).padStart(6)} %  ${perCall(us).padStart(16)}  ${name}`);
};
console.log(`profile ${(totalUs / 1000).toFixed(0)} ms, ${profile.samples.length} samples`);
print(
  "all functions, self time",
  sum(() => true),
);
const ownCode = (node: ProfileNode) => node.callFrame.url.includes("packages/inference/src");
print("the client's own code (packages/inference/src)", sum(ownCode));

/**
 * The client's functions by step of a chat call. Profile with --no-turbo-inlining, or an inlined
 * function's time is its caller's. Anonymous functions are told apart by file: in openai-chat.ts they are
 * the body builder and the output check (one row); in http/ the watched attempt's callbacks.
 */
const STEPS: Array<[string, RegExp]> = [
  ["argument checks", /^(chatCompletion|isEndpointChat|validateArgs|isInferenceProvider|prepare) /],
  [
    "provider resolution",
    /^(taskSpec|providerConfig|callContextFor|createCallContext|Call|resolveModel|chooseMapping|cachedProviderMappings|mappingKey|get) /,
  ],
  // Before "request build": the watched attempt's class initializer is named as PreparedCall's is.
  // endpointChat (request build) also makes the call context and hands the request to sendWatched, which
  // counts here with the rest of http/request.ts.
  [
    "send + watchdog + the answer's read (WatchedAttempt)",
    /^(sendRequest|sendRequestForJson|watched|fetchInit|fetchWithWatchdog|watchAttempt|watch|unwatch|expire|arm) |\(anonymous\) packages\/inference\/src\/http\/| packages\/inference\/src\/http\/(request|attempt-watchdog)\.ts:/,
  ],
  [
    "request build",
    /^(endpointChat|endpointChatRequest|bearer|routedChatRequest|chatArgs|chatUrlOf|endpointRouteUrl|trimSlash|assemble|buildRequestWith|PreparedCall|<instance_members_initializer>|tokenKind|fillPath|authHeader) |\(anonymous\) packages\/inference\/src\/routing\//,
  ],
  ["response read", /^(sendChat|sendChatIn|runTask|isJsonResponse|isThenable) /],
  ["output check", /^(validateChatCompletion|expectShape|isObject|isNumber|isString|parse) /],
  // The chat protocol's body builder and output check are arrow functions of one object: one row for both.
  ["chat body + output check (openai-chat.ts)", /openai-chat\.ts/],
];
const steps = new Map<string, number>();
for (const [name, us] of sum(ownCode)) {
  const step = STEPS.find(([, pattern]) => pattern.test(name))?.[0] ?? `other: ${name}`;
  steps.set(step, (steps.get(step) ?? 0) + us);
}
print(
  "the client's own code by step",
  [...steps].sort((a, b) => b[1] - a[1]),
);
