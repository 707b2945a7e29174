/**
 * The processes a router benchmark runs (run.ts, chunk-times.ts): provider-sim, the hub as `npm start` runs it
 * with every provider pointed at the simulator, and the bare proxy in front of the same simulator; the hub's
 * user token, the gated model's grant and the own provider added through the hub's admin API.
 */
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { NPM_START_STEPS, npmStartServerArgs } from "../npm-start-hub.js";
import { untilIdle } from "../repos/measure.js";
import { type ServerProcess, startServer } from "./processes.js";

const TOKENS = Number(process.env.BENCH_TOKENS ?? 32);
/** Idle connections kept by the simulator and both proxies: the hub's default (KEEP_ALIVE_SECONDS). */
export const KEEP_ALIVE_SECONDS = 65;
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const HUB_ROOT = process.env.BENCH_HUB_ROOT || repoRoot;
/** V8's young generation as `npm start` sets it, for the hub and (to compare like with like) the proxy. */
export const NODE_FLAGS = NPM_START_STEPS.server.slice(0, -1);
/** Flags for the hub alone (a profiler): split on spaces. */
const HUB_EXTRA_FLAGS = (process.env.BENCH_HUB_NODE_OPTIONS ?? "").split(" ").filter(Boolean);
/** The same for the proxy (a profiler beside the hub's, to set the two profiles side by side). */
const PROXY_EXTRA_FLAGS = (process.env.BENCH_PROXY_NODE_OPTIONS ?? "").split(" ").filter(Boolean);
export type ProviderKind = "hosted" | "own";
/** The own provider the benchmark adds (an OpenAI-compatible server: the simulator's together API). */
const OWN_PROVIDER = "bench-own";
const ADMIN_TOKEN = `bench-router-admin-${process.pid}-${Date.now()}`;
/** The catalogue's model and its together mapping (the provider's own id, for the bare proxy). */
const HUB_MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const PROVIDER = "together";
const PROVIDER_MODEL = "meta-llama/Llama-3.3-70B-Instruct-Turbo";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const messages = [{ role: "user", content: "What is the capital of France?" }];

export interface Side {
  name: "hub" | ProxyKind;
  /** The side and, for the hub, its provider: `hub (own provider)`. */
  label: string;
  server: ServerProcess;
  path: string;
  headers: Record<string, string>;
  /** The chat of call `index`; its seed fixes the simulator's pace for it, the same on both sides. */
  body(index: number, stream: boolean): string;
}

export type ServerSet = Awaited<ReturnType<typeof startSet>>;

/**
 * The proxy the hub is set against: `bare` (bare-proxy.ts, node:http + undici: the least a proxy can do) or
 * `hono` (hono-proxy.ts: the hub's HTTP stack with none of the hub's logic).
 */
export type ProxyKind = "bare" | "hono";

/**
 * A simulator, a hub and the bare proxy in front of it (and the Hono proxy as well with `withHonoProxy`);
 * `pace` undefined for a simulator that answers at once. The seed's pairing is checked for the provider kinds
 * that will be measured.
 */
export async function startSet(
  pace: string | undefined,
  {
    kinds = ["hosted", "own"],
    withHonoProxy = false,
  }: { kinds?: readonly ProviderKind[]; withHonoProxy?: boolean } = {},
) {
  const started: ServerProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "modelhub-bench-router-"));
  const stop = async () => {
    // The hop processes first, so that they do not see the simulator go away under a call.
    for (const server of started.reverse()) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const sim = await startServer("provider-sim", [
      "--conditions=source",
      "--import",
      "tsx",
      join(repoRoot, "packages/provider-sim/src/cli.ts"),
      "--port",
      "0",
      "--quiet",
      "--stream-chunks",
      String(TOKENS),
      ...(pace ? ["--pace", pace] : []),
      // Connections kept across a side's idle spell while the other sides run (a paced round is ~12 s), as
      // a hosted provider keeps them; with node's 5 s every paced run reopened all of them.
      "--keep-alive-seconds",
      String(KEEP_ALIVE_SECONDS),
    ]);
    started.push(sim);
    const hubLog = join(dataDir, "hub.log");
    const hub = await startServer("hub", npmStartServerArgs(HUB_ROOT, HUB_EXTRA_FLAGS), {
      env: {
        ...process.env,
        // Every provider at the simulator, as an operator points providers at a gateway.
        PROVIDER_BASE_URLS: INFERENCE_PROVIDERS.map((name) => `${name}=${sim.url}/${name}`).join(","),
        DATA_DIR: join(dataDir, "data"),
        ADMIN_TOKEN,
        PORT: "0",
        // A key, as an operator configures a real provider (the simulator takes any key).
        TOGETHER_API_KEY: "bench-together-key",
      },
      stderr: openSync(hubLog, "a"),
    });
    started.push(hub);
    const proxySide = async (kind: ProxyKind): Promise<Side> => {
      const label = kind === "bare" ? "bare proxy" : "Hono proxy";
      const server = await startServer(label, [
        ...NODE_FLAGS,
        ...PROXY_EXTRA_FLAGS,
        "--import",
        "tsx",
        here(kind === "bare" ? "./bare-proxy.ts" : "./hono-proxy.ts"),
        `${sim.url}/${PROVIDER}`,
      ]);
      started.push(server);
      return {
        name: kind,
        label,
        server,
        path: "/v1/chat/completions",
        headers: { "content-type": "application/json", authorization: "Bearer bench-together-key" },
        body: (seed, stream) => JSON.stringify({ model: PROVIDER_MODEL, messages, stream, seed }),
      };
    };
    const bareProxy = await proxySide("bare");
    const honoProxy = withHonoProxy ? await proxySide("hono") : undefined;
    const token = await hubToken(hub.url);
    await addOwnProvider(hub.url, sim.url);
    const hubSide = (suffix: string, kind: ProviderKind): Side => ({
      name: "hub",
      label: `hub (${kind} provider)`,
      server: hub,
      path: "/v1/chat/completions",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: (seed, stream) => JSON.stringify({ model: `${HUB_MODEL}:${suffix}`, messages, stream, seed }),
    });
    const sides: Record<ProviderKind, [Side, Side]> = {
      hosted: [hubSide(PROVIDER, "hosted"), bareProxy],
      own: [hubSide(OWN_PROVIDER, "own"), bareProxy],
    };
    for (const kind of kinds) await checkSeedReachesProvider(sides[kind][0], sim.url);
    // A fresh hub seeds its demo repositories and scans their files after it starts; a team's hub has long
    // finished that: the scenarios measure the hub at rest.
    await untilIdle(hub.pid);
    return { sim, sides, bareProxy, honoProxy, hubLog, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A user token for the router, and the grant the (gated) model needs, through the admin API. */
async function hubToken(hubUrl: string): Promise<string> {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
  const issued = await fetch(`${hubUrl}/api/admin/tokens`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ name: "bench-router" }),
  });
  if (!issued.ok) throw new Error(`issuing a token: ${issued.status} ${await issued.text()}`);
  const { token } = (await issued.json()) as { token: string };
  const whoami = await fetch(`${hubUrl}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
  const { name } = (await whoami.json()) as { name: string };
  const granted = await fetch(`${hubUrl}/api/models/${HUB_MODEL}/user-access-request/grant`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ user: name }),
  });
  if (!granted.ok) throw new Error(`granting ${HUB_MODEL}: ${granted.status} ${await granted.text()}`);
  return token;
}

/**
 * The own provider, as an administrator adds one (admin API): the simulator's together API as an
 * OpenAI-compatible server with its key, serving the benchmark's model under the provider's own id.
 */
async function addOwnProvider(hubUrl: string, simUrl: string): Promise<void> {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
  for (const [path, body] of [
    ["", { baseUrl: `${simUrl}/${PROVIDER}/v1`, apiKey: "bench-together-key", healthPath: "/__sim/health" }],
    ["/models", { model: HUB_MODEL, servedName: PROVIDER_MODEL }],
  ] as const) {
    const answer = await fetch(`${hubUrl}/api/admin/own-providers/${OWN_PROVIDER}${path}`, {
      method: "PUT",
      headers: admin,
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`adding the own provider: ${answer.status} ${await answer.text()}`);
  }
}

/** The pairing of calls rests on the hub passing `seed` on: checked once, through the simulator's log. */
async function checkSeedReachesProvider(hub: Side, simUrl: string): Promise<void> {
  const seed = 987_654;
  const answer = await fetch(`${hub.server.url}${hub.path}`, {
    method: "POST",
    headers: hub.headers,
    body: hub.body(seed, false),
  });
  if (!answer.ok) throw new Error(`a chat through the hub failed: ${answer.status} ${await answer.text()}`);
  await answer.text();
  const log = (await (await fetch(`${simUrl}/__sim/requests`)).json()) as { json?: { seed?: unknown } }[];
  if (log.at(-1)?.json?.seed !== seed) {
    process.stdout.write(
      "warning: the hub did not pass the chat's seed on; the hub and the proxy get different pace draws\n",
    );
  }
}
