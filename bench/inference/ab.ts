/**
 * Where a client's sequential chat call differs from a raw fetch: raw fetch, then raw fetch with one
 * difference of the clients' added at a time (header order, body key order, a URL built per call, the
 * content-type check before reading, the default-timeout watchdog, extra async frames, abort signals), and
 * the clients themselves, against the bench server (its own process, loopback).
 *
 * The variants take turns of `--run` calls (default 10) in a fresh seeded shuffled order each turn, as
 * bench:inference does; every call's wall clock is kept, and this process's CPU time (process.cpuUsage,
 * user + system) per turn. Figures: median and p25 wall per call, mean CPU per call, each against raw fetch.
 * With --memory there is no server and no socket: `fetch` builds the `Request` from the call's arguments (as
 * undici's fetch does first) and answers a fresh `Response` with the server's completion, so what is left is
 * each variant's own CPU around fetch, without the network's noise.
 * With --evict MB, every call starts with cold caches: before it (outside its timing) a buffer that size is
 * walked, one byte per cache line, as the wait for the network lets other work (the server on the same core,
 * other processes) do. Then the wall clock is what counts: the CPU column also has the walks in it.
 * Usage: node --conditions=source --import tsx inference/ab.ts [--calls 4000] [--run 10] [--only a,b] [--memory]
 * [--evict 8] [--inflight 32 --run 500]
 */
import { setMaxListeners } from "node:events";
import { PerformanceObserver } from "node:perf_hooks";
import { InferenceClient as HfClient } from "@huggingface/inference";
import { chatCompletion } from "@modelhub/inference";
import { watchAttempt } from "../../packages/inference/src/http/attempt-watchdog.js";
import { createCallContext } from "../../packages/inference/src/http/call-context.js";
import { retryPolicy } from "../../packages/inference/src/http/retry-policy.js";
import { openAiChat } from "../../packages/inference/src/protocols/openai-chat.js";
import { taskSpec } from "../../packages/inference/src/providers/index.js";
import { buildRequestWith } from "../../packages/inference/src/routing/request-builder.js";
import { sendChat } from "../../packages/inference/src/tasks/send-chat.js";
import { validateChatCompletion } from "../../packages/inference/src/validate.js";
import { CHECKED_FETCH, makeClients } from "./clients.js";
import { COMPLETION, MAPPING } from "./completion.js";
import { concurrent, median, seededRandom } from "./measure.js";
import { type ServerUsage, startServer } from "./start-server.js";

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}
const CALLS = flag("calls", 4000);
const RUN = flag("run", 10);
const onlyAt = process.argv.indexOf("--only");
const ONLY = onlyAt === -1 ? undefined : process.argv[onlyAt + 1]!.split(",");
const MEMORY = process.argv.includes("--memory");
/** --inflight N: each turn is `--run` requests with N in flight at any time, timed as a whole (as bench:inference's 32-in-flight table). */
const IN_FLIGHT = flag("inflight", 0);
const EVICT_MB = flag("evict", 0);
const evictBuffer = new Uint8Array(EVICT_MB * 1024 * 1024);
let evictSum = 0;
function evictCaches(): void {
  for (let i = 0; i < evictBuffer.length; i += 64) evictSum += evictBuffer[i]!++;
}

type Chat = () => Promise<unknown>;
interface Variant {
  name: string;
  chat: Chat;
}

const MESSAGES = [{ role: "user" as const, content: "Hello" }];
type Completion = { choices: Array<{ message: { content: string } }> };

/**
 * AB_BEFORE=<dir>: also time the client's chatCompletion from another copy of its sources (e.g. the last
 * commit's, from `git archive`), side by side with the working tree's.
 */
const before = process.env.AB_BEFORE
  ? ((await import(`${process.env.AB_BEFORE}/index.ts`)) as { chatCompletion: typeof chatCompletion })
      .chatCompletion
  : undefined;

function variants(base: string): Variant[] {
  const url = `${base}/v1/chat/completions`;
  const rawHeaders = () => ({ "Content-Type": "application/json", Authorization: "Bearer bench-key" });
  const rawBody = () => JSON.stringify({ model: "bench-model", messages: MESSAGES, max_tokens: 16 });
  const read = async (res: Response) => {
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return ((await res.json()) as Completion).choices[0]!.message.content;
  };

  /** raw fetch with some of its parts swapped: every variant below is this with one change. */
  const rawWith = (parts: {
    url?: () => string;
    headers?: () => Record<string, string>;
    body?: () => string;
    init?: () => Partial<RequestInit>;
    send?: (sent: Promise<Response>) => Promise<Response>;
    read?: (res: Response) => Promise<unknown>;
  }): Chat => {
    const makeUrl = parts.url ?? (() => url);
    const headers = parts.headers ?? rawHeaders;
    const body = parts.body ?? rawBody;
    const init = parts.init ?? (() => ({}));
    const send = parts.send ?? ((sent: Promise<Response>) => sent);
    const readBody = parts.read ?? read;
    return async () => {
      const res = await send(
        fetch(makeUrl(), { method: "POST", headers: headers(), body: body(), ...init() }),
      );
      return readBody(res);
    };
  };

  const raw: Chat = async () => {
    const res = await fetch(url, { method: "POST", headers: rawHeaders(), body: rawBody() });
    return read(res);
  };
  // The same code as a second function: the bench's control reuses raw fetch's closure, this one does not.
  const rawCopy: Chat = async () => {
    const res = await fetch(url, { method: "POST", headers: rawHeaders(), body: rawBody() });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return ((await res.json()) as Completion).choices[0]!.message.content;
  };

  // One signal for every call, as an application passing its own long-lived signal does: undici adds a
  // listener per request and removes it only when the request is collected, so lift the warning limit.
  const sharedSignal = new AbortController().signal;
  setMaxListeners(0, sharedSignal);
  const hf = new HfClient("bench-key").endpoint(base);
  const ours: Chat = async () => {
    const out = await chatCompletion({
      endpointUrl: base,
      model: "bench-model",
      accessToken: "bench-key",
      messages: MESSAGES,
      max_tokens: 16,
    });
    return out.choices[0]!.message.content;
  };
  // A chat with a provider named, through the router (here the bench server, which also answers the one
  // mapping lookup before the client's cache does): the call users make most.
  const routedOptions = Object.freeze({ hubUrl: base, routerUrl: base });
  const routedArgs = () => ({
    model: "bench-model",
    provider: "together" as const,
    accessToken: "hf_bench",
    messages: MESSAGES,
    max_tokens: 16,
  });
  const oursRouted: Chat = async () =>
    (await chatCompletion(routedArgs(), routedOptions)).choices[0]!.message.content;
  const oursNoTimeout: Chat = async () => {
    const out = await chatCompletion(
      {
        endpointUrl: base,
        model: "bench-model",
        accessToken: "bench-key",
        messages: MESSAGES,
        max_tokens: 16,
      },
      { timeoutMs: 0 },
    );
    return out.choices[0]!.message.content;
  };

  const sink: unknown[] = [];
  const garbage = (length: number) => {
    sink[0] = new Array(length).fill(0);
    return {};
  };
  const protocols = { "openai-chat": openAiChat };
  const lean =
    (parts: { watchdog?: boolean; context?: boolean; builder?: boolean }): Chat =>
    async () => {
      const all = {
        endpointUrl: base,
        model: "bench-model",
        accessToken: "bench-key",
        messages: MESSAGES,
        max_tokens: 16,
      };
      const { endpointUrl, accessToken, model, ...args } = all;
      const call = parts.context ? createCallContext({}, retryPolicy(true, undefined)) : undefined;
      let requestUrl: string;
      let headers: Record<string, string>;
      let body: string;
      if (parts.builder) {
        const spec = taskSpec("hf-inference", "conversational", protocols);
        const built = buildRequestWith(
          protocols,
          {
            provider: "hf-inference",
            model,
            providerModelId: model,
            task: "conversational",
            args,
            accessToken,
            endpointUrl,
          },
          spec,
        );
        requestUrl = built.url;
        headers = built.headers;
        body = JSON.stringify(built.body);
      } else {
        requestUrl = `${endpointUrl}/v1/chat/completions`;
        headers = { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" };
        body = JSON.stringify(Object.assign({}, args, { model }));
      }
      const sent = fetch(requestUrl, { method: "POST", headers, body });
      const res = await (parts.watchdog ? watchAttempt(sent, timeoutMessage, ignore) : sent);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const payload = res.headers.get("content-type")?.includes("json") ? await res.json() : await res.blob();
      call?.dispose();
      return (validateChatCompletion(payload) as Completion).choices[0]!.message.content;
    };
  const timeoutMessage = () => new Error("timed out");
  const ignore = () => {};
  const frames = async (res: Promise<Response>) => {
    const inner = async () => {
      const deeper = async () => await res;
      return await deeper();
    };
    return await inner();
  };
  return [
    { name: "raw fetch", chat: raw },
    { name: "raw fetch (control)", chat: raw },
    { name: "raw fetch (copy)", chat: rawCopy },
    // bench:inference's floor of a checking client: raw fetch plus the status, content-type and shape checks.
    { name: CHECKED_FETCH, chat: makeClients(base).find((c) => c.name === CHECKED_FETCH)!.chat },
    // A client in one function: what this client does for a chat against an endpoint, written inline
    // (arguments copied without the routing fields, model added, auth header, JSON check, shape check),
    // then with the client's own parts put back one at a time.
    { name: "lean client", chat: lean({}) },
    { name: "lean + watchdog", chat: lean({ watchdog: true }) },
    { name: "lean + call context", chat: lean({ context: true }) },
    { name: "lean + request builder", chat: lean({ builder: true }) },
    {
      name: "+ Authorization first",
      chat: rawWith({
        headers: () => ({ Authorization: "Bearer bench-key", "Content-Type": "application/json" }),
      }),
    },
    {
      name: "+ model last in body",
      chat: rawWith({
        body: () => JSON.stringify({ messages: MESSAGES, max_tokens: 16, model: "bench-model" }),
      }),
    },
    { name: "+ URL built per call", chat: rawWith({ url: () => `${base}/v1/chat/completions` }) },
    {
      name: "+ User-Agent header",
      chat: rawWith({
        headers: () => ({ ...rawHeaders(), "User-Agent": "@huggingface/inference/4.13.30" }),
      }),
    },
    {
      name: "+ text() then parse",
      chat: rawWith({
        read: async (res) => {
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
          return (JSON.parse(await res.text()) as Completion).choices[0]!.message.content;
        },
      }),
    },
    {
      name: "+ 3 microtasks before fetch",
      chat: async () => {
        await null;
        await null;
        await null;
        const res = await fetch(url, { method: "POST", headers: rawHeaders(), body: rawBody() });
        return read(res);
      },
    },
    {
      name: "+ setImmediate before fetch",
      chat: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const res = await fetch(url, { method: "POST", headers: rawHeaders(), body: rawBody() });
        return read(res);
      },
    },
    {
      name: "+ content-type check",
      chat: rawWith({
        read: (res) => (res.headers.get("content-type")?.includes("json") ? read(res) : res.blob()),
      }),
    },
    { name: "+ 3 async frames", chat: rawWith({ send: frames }) },
    {
      name: "+ watchdog",
      chat: rawWith({ send: (sent) => watchAttempt(sent, timeoutMessage, ignore) }),
    },
    // What a client's own code leaves behind per call (ours ~4 KB more than raw fetch's code: allocation.ts),
    // as plain garbage: an array of 500 small integers is ~4 KB of young generation.
    { name: "+ 4 KB garbage", chat: rawWith({ init: () => garbage(500) }) },
    { name: "+ 16 KB garbage", chat: rawWith({ init: () => garbage(2000) }) },
    ...(MEMORY
      ? [] // without a fetch to finish them, requests keep their listener on the shared signal
      : [{ name: "+ shared signal", chat: rawWith({ init: () => ({ signal: sharedSignal }) }) }]),
    { name: "+ signal per call", chat: rawWith({ init: () => ({ signal: new AbortController().signal }) }) },
    {
      name: "+ AbortSignal.timeout",
      chat: rawWith({ init: () => ({ signal: AbortSignal.timeout(120_000) }) }),
    },
    {
      name: "+ ours' header and key order",
      chat: rawWith({
        headers: () => ({ Authorization: "Bearer bench-key", "Content-Type": "application/json" }),
        body: () => JSON.stringify({ messages: MESSAGES, max_tokens: 16, model: "bench-model" }),
      }),
    },
    {
      // The client's send and read (tasks/send-chat.ts) with raw fetch's request: what its own chain costs.
      name: "ours' send + raw request",
      chat: async () => {
        const out = await sendChat({
          url,
          method: "POST",
          headers: rawHeaders(),
          body: rawBody(),
          provider: "hf-inference",
          subject: "bench-model",
        });
        return out.choices[0]!.message.content;
      },
    },
    { name: "@modelhub/inference", chat: ours },
    { name: "@modelhub timeoutMs 0", chat: oursNoTimeout },
    { name: "@modelhub routed", chat: oursRouted },
    ...(before
      ? [
          {
            name: "@modelhub (before)",
            chat: async () => {
              const out = await before({
                endpointUrl: base,
                model: "bench-model",
                accessToken: "bench-key",
                messages: MESSAGES,
                max_tokens: 16,
              });
              return out.choices[0]!.message.content;
            },
          },
          {
            name: "@modelhub (before) routed",
            chat: async () => (await before(routedArgs(), routedOptions)).choices[0]!.message.content,
          },
        ]
      : []),
    {
      name: "@huggingface/inference",
      chat: async () => {
        const out = await hf.chatCompletion({ model: "bench-model", messages: MESSAGES, max_tokens: 16 });
        return out.choices[0]!.message.content;
      },
    },
  ].filter((v) => !ONLY || ONLY.includes(v.name) || v.name === "raw fetch");
}

const gcPauses: Array<{ start: number; duration: number }> = [];
new PerformanceObserver((entries) => {
  for (const entry of entries.getEntries())
    gcPauses.push({ start: entry.startTime, duration: entry.duration });
}).observe({ entryTypes: ["gc"] });

async function measure(list: Variant[]): Promise<void> {
  const turns = Math.ceil(CALLS / RUN);
  const wall = list.map(() => new Float64Array(turns * RUN));
  const cpuMicros = list.map(() => 0);
  // Each turn's window, to charge a GC pause to the variant whose turn it started in.
  const windows: Array<{ variant: number; start: number; end: number }> = [];
  const random = seededRandom(list.length * 7_919 + CALLS);
  const order = list.map((_, i) => i);
  for (let turn = 0; turn < turns; turn++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const v of order) {
      const { chat } = list[v]!;
      const cpu = process.cpuUsage();
      const turnStart = performance.now();
      for (let k = 0; k < RUN; k++) {
        if (EVICT_MB) evictCaches();
        const start = performance.now();
        await chat();
        wall[v]![turn * RUN + k] = performance.now() - start;
      }
      const used = process.cpuUsage(cpu);
      cpuMicros[v]! += used.user + used.system;
      windows.push({ variant: v, start: turnStart, end: performance.now() });
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  const gcMicros = list.map(() => 0);
  let w = 0;
  for (const pause of gcPauses) {
    while (w < windows.length && windows[w]!.end <= pause.start) w++;
    if (w < windows.length && windows[w]!.start <= pause.start)
      gcMicros[windows[w]!.variant]! += pause.duration * 1000;
  }
  const at = (sorted: Float64Array, q: number) => sorted[Math.round(q * (sorted.length - 1))]! * 1000;
  const rows = list.map((v, i) => {
    const sorted = Float64Array.from(wall[i]!).sort();
    const calls = turns * RUN;
    return {
      name: v.name,
      p25: at(sorted, 0.25),
      median: at(sorted, 0.5),
      cpu: cpuMicros[i]! / calls,
      gc: gcMicros[i]! / calls,
    };
  });
  const base = rows[0]!;
  const cell = (value: number, of: number) =>
    `${value.toFixed(1).padStart(7)} ${`${(value / of).toFixed(3)}x`.padStart(7)} ${(value - of >= 0 ? "+" : "") + (value - of).toFixed(1).padStart(5)}`;
  console.log(
    `\n${"".padEnd(26)} ${"p25 wall µs".padStart(21)}   ${"median wall µs".padStart(21)}   ${"CPU µs/call".padStart(21)}   ${"GC µs/call".padStart(21)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(26)} ${cell(row.p25, base.p25)}   ${cell(row.median, base.median)}   ${cell(row.cpu, base.cpu)}   ${cell(row.gc, base.gc)}`,
    );
  }
}

/**
 * --inflight: every turn, one variant makes `RUN` requests with `IN_FLIGHT` in flight (the bench's
 * `concurrent`). Per request: the turn's wall clock, this process's CPU, the server process's CPU, and the
 * connections the server accepted during the turn (a client that opens new connections instead of reusing
 * its pool's pays a TCP handshake and a cold socket each).
 */
async function measureInFlight(list: Variant[], serverUsage: () => Promise<ServerUsage>): Promise<void> {
  const turns = Math.ceil(CALLS / RUN);
  const wall = list.map(() => [] as number[]);
  const cpu = list.map(() => 0);
  const serverCpu = list.map(() => 0);
  const connections = list.map(() => 0);
  const random = seededRandom(list.length * 7_919 + CALLS);
  const order = list.map((_, i) => i);
  for (let turn = 0; turn < turns; turn++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const v of order) {
      const server = await serverUsage();
      const sample = await concurrent(list[v]!.chat, RUN, IN_FLIGHT);
      const serverAfter = await serverUsage();
      wall[v]!.push(sample.wallMs * 1000);
      cpu[v]! += sample.cpuMs * 1000;
      serverCpu[v]! += (serverAfter.cpuMicros - server.cpuMicros) / RUN;
      connections[v]! += serverAfter.connections - server.connections;
    }
  }
  const rows = list.map((v, i) => ({
    name: v.name,
    wall: median(wall[i]!),
    cpu: cpu[i]! / turns,
    server: serverCpu[i]! / turns,
    connections: connections[i]! / turns,
  }));
  const base = rows[0]!;
  const cell = (value: number, of: number) =>
    `${value.toFixed(1).padStart(7)} ${`${(value / of).toFixed(3)}x`.padStart(7)}`;
  console.log(
    `\n${"".padEnd(30)} ${"median wall µs/req".padStart(15)}   ${"client CPU µs/req".padStart(15)}   ${"server CPU µs/req".padStart(15)}   new connections/turn`,
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(30)} ${cell(row.wall, base.wall)}   ${cell(row.cpu, base.cpu)}   ${cell(row.server, base.server)}   ${row.connections.toFixed(1).padStart(6)}`,
    );
  }
}

function answerFromMemory(): { base: string; stop: () => void } {
  const networkFetch = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    new Request(input, init);
    const answer = String(input).includes("/api/models/") ? MAPPING : COMPLETION;
    return Promise.resolve(
      new Response(answer, { status: 200, headers: { "content-type": "application/json" } }),
    );
  }) as typeof fetch;
  return { base: "http://127.0.0.1:9", stop: () => (globalThis.fetch = networkFetch) };
}

const server = MEMORY ? undefined : await startServer();
const { base, stop } = server ?? answerFromMemory();
try {
  const list = variants(base);
  console.log(
    `A/B ${MEMORY ? "in memory (no socket)" : `on ${base}`}, node ${process.version}: ${list.length} variants, ${CALLS} calls each in turns of ${RUN}`,
  );
  // Warm-up: undici's fetch keeps getting faster for a few thousand requests.
  for (let i = 0; i < 1500; i++) for (const v of list) await v.chat();
  if (IN_FLIGHT) for (const v of list) await concurrent(v.chat, 2000, IN_FLIGHT);
  if (IN_FLIGHT && server) await measureInFlight(list, server.serverUsage);
  else await measure(list);
  if (EVICT_MB) console.log(`(evicted ${EVICT_MB} MB before each call; checksum ${evictSum & 0xff})`);
} finally {
  stop();
}
