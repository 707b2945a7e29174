import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serveAdmin } from "./admin.js";
import type { AuthPolicy } from "./auth.js";
import { checkAuth } from "./auth.js";
import type { ProviderDefinition, SimContext, SimLogger } from "./context.js";
import { sendProviderError } from "./errors.js";
import {
  FAILURE_FAULTS,
  type FaultKind,
  type FaultOf,
  FaultQueue,
  InvalidFaultError,
  parseFaultHeader,
  type SimFault,
} from "./faults.js";
import { headerValue, readBody, type SimRequest, sendJson, sendText, sleep, toSimRequest } from "./http.js";
import { serveModelInfo, serveTasks } from "./hub-api.js";
import { JobStore } from "./jobs.js";
import { MEDIA_CONTENT_TYPES, mediaBytes, mediaKindForPath, SIMULATED_HEADER } from "./media.js";
import { defaultModels, ModelRegistry, type SimModel } from "./models.js";
import { checkPace, drawPace, type SimPace, seededRandom } from "./pace.js";
import { PROVIDERS } from "./providers/index.js";
import { findRecording } from "./recorded-traffic.js";
import { replayExchange } from "./replay.js";
import { describeAuthScheme, type RecordedRequest, RequestLog, redactHeaders } from "./request-log.js";
import { RouteTable } from "./route-match.js";
import { resolveRouterChat } from "./router-v1.js";

export interface ProviderSimOptions extends AuthPolicy {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  logger?: SimLogger;
  /** Added before every provider and hub reply (not admin calls). */
  latencyMs?: number;
  /** How long an idle connection stays open, in ms (default 5000, node's); hosted providers keep theirs longer. */
  keepAliveMs?: number;
  /** Models added to the recorded ones (an entry with a known id replaces it). */
  models?: SimModel[];
  /** Start from no models at all instead of the recorded ones. */
  replaceModels?: boolean;
  /** Events per synthesized stream (the `x-sim-stream-chunks` header overrides it per request). */
  streamChunks?: number;
  /** Coalesce stream events into writes of at least this many bytes (default 0: one write per event). */
  streamBatchBytes?: number;
  /** Pause between stream events (a model's token pace, for demos); default 0. */
  streamIntervalMs?: number;
  /**
   * A hosted model's pace for provider calls (benchmarks): each call waits a drawn time to its first token,
   * then streams at a drawn tokens/s (a non-streamed answer waits for all its tokens). The pause between
   * events it draws gives way to `x-sim-stream-interval-ms` when a request sends it.
   */
  pace?: SimPace;
  /** Status polls a job takes to complete: 0 = done at the first poll. Default 2. */
  jobSteps?: number;
  /** Replay recorded exchanges for identical requests (default true). */
  replay?: boolean;
  /** Most requests kept in the log (oldest dropped). Default 10,000. */
  requestLogLimit?: number;
}

export interface ProviderSim {
  /** `http://127.0.0.1:PORT`; providers at `{url}/{provider}/...`, the hub API at `{url}/api/...`. */
  readonly url: string;
  close(): Promise<void>;
  /** Every request received (admin calls excepted), oldest first. */
  readonly requests: ReadonlyArray<RecordedRequest>;
  clearRequests(): void;
  /** Replaces the fault queue with this one fault, or empties it with null. */
  setFault(fault: SimFault | null): void;
  /** Appends a fault to the queue. */
  queueFault(fault: SimFault): void;
  /** Faults still waiting, with their remaining uses. */
  pendingFaults(): SimFault[];
  /** The model registry the hub API and hf-inference read; `models.set(...)` adds one at run time. */
  readonly models: ModelRegistry;
  readonly jobs: JobStore;
  /** SSE streams being written right now: 0 again soon after every client disconnects. */
  readonly activeStreams: number;
  /** Names of the providers served. */
  readonly providers: readonly string[];
  /** `{url}/{provider}`. */
  providerUrl(provider: string): string;
}

const MAX_STREAM_CHUNKS = 10_000_000;

interface MountedProvider {
  definition: ProviderDefinition;
  table: RouteTable;
}

export async function startProviderSim(options: ProviderSimOptions = {}): Promise<ProviderSim> {
  const logger = options.logger ?? {};
  const registry = new ModelRegistry(options.replaceModels ? [] : defaultModels());
  for (const model of options.models ?? []) registry.set(model);
  const jobs = new JobStore();
  const faults = new FaultQueue();
  const log = new RequestLog(options.requestLogLimit ?? 10_000);
  const mounted = new Map<string, MountedProvider>(
    PROVIDERS.map((definition) => [
      definition.name,
      { definition, table: new RouteTable(definition.routes) },
    ]),
  );
  const streams = { active: 0 };
  const pace = options.pace && checkPace(options.pace);
  const startedAt = Date.now();
  let simUrl = "";

  async function handle(incoming: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? "/", "http://sim.invalid");
    res.setHeader("access-control-allow-origin", "*");
    // Every answer says it is the simulator's: media carry a mark in the file (media.ts), JSON answers
    // (a transcript, labels) only this header, which the hub's router passes on to the playground.
    res.setHeader(SIMULATED_HEADER, "1");
    if (incoming.method === "OPTIONS") {
      res.writeHead(204, {
        "access-control-allow-methods": "GET, POST, PUT, DELETE, OPTIONS",
        "access-control-allow-headers": "*",
        "access-control-max-age": "600",
      });
      res.end();
      return;
    }
    const rawBody = await readBody(incoming);
    const request = toSimRequest(incoming, url.pathname, url.searchParams, rawBody);
    if (url.pathname.startsWith("/__sim/")) {
      serveAdmin(request, res, { simUrl, startedAt, log, faults });
      return;
    }

    // The public router's OpenAI-compatible chat (`{router}/v1/chat/completions`, `model` as `id:provider`):
    // served by the chosen provider's own route, logged with the body the caller sent.
    let routed: { provider: string; path: string; request: SimRequest } | undefined;
    if (url.pathname === "/v1/chat/completions" && request.method === "POST") {
      const resolved = resolveRouterChat(request.json, registry, mounted);
      if (typeof resolved === "string") {
        sendJson(res, 400, { error: resolved });
        return;
      }
      const path = `/${resolved.provider}${resolved.path}`;
      routed = {
        provider: resolved.provider,
        path,
        request: toSimRequest(incoming, path, url.searchParams, resolved.body),
      };
    }
    const [, first = "", ...rest] = (routed?.path ?? url.pathname).split("/");
    const area =
      first === "api" ? "hub" : first === "media" ? "media" : mounted.has(first) ? first : undefined;
    const entry = log.add({
      method: request.method,
      path: url.pathname + url.search,
      provider: area,
      headers: redactHeaders(incoming.headers),
      hadAuth: incoming.headers.authorization !== undefined || incoming.headers["x-key"] !== undefined,
      authScheme: describeAuthScheme(incoming.headers),
      bodyText: request.isJson || isText(incoming) ? request.bodyText : `[${rawBody.length} bytes]`,
      json: request.json,
      receivedAt: Date.now(),
    });
    // Providers answer with a request id (clients put it in their errors); the sim's is the log sequence.
    res.setHeader("x-request-id", entry.requestId);
    if (area === undefined) {
      sendJson(res, 404, {
        error: `Nothing is mounted at /${first}. Providers: ${[...mounted.keys()].join(", ")}`,
      });
      return;
    }

    let headerFault: SimFault | undefined;
    const faultHeader = headerValue(incoming.headers, "x-sim-fault");
    if (faultHeader !== undefined) {
      try {
        headerFault = parseFaultHeader(faultHeader);
      } catch (error) {
        const message = error instanceof InvalidFaultError ? error.message : "x-sim-fault is not valid JSON";
        sendJson(res, 400, { error: message });
        return;
      }
    }
    const providerPath = `/${rest.join("/")}`;
    const takeFault = <K extends FaultKind>(kinds: readonly K[]): FaultOf<K> | undefined => {
      if (headerFault && (kinds as readonly string[]).includes(headerFault.kind)) {
        const fault = headerFault as FaultOf<K>;
        headerFault = undefined;
        return fault;
      }
      return faults.take(kinds, { provider: area, path: providerPath });
    };

    if (options.latencyMs) await sleep(options.latencyMs);
    const definition = mounted.get(area)?.definition;
    const errorStyle = definition?.errors ?? "hf";
    // At most one delay, then at most one failure, per request (a fault with `times: Infinity` stays queued).
    const delay = takeFault(["delay"] as const);
    if (delay) {
      await sleep(delay.ms);
      // The client may have given up meanwhile (its timeout is what a delay usually tests).
      if (!res.socket || res.socket.destroyed) return;
    }
    const fault = takeFault(FAILURE_FAULTS);
    if (fault) {
      if (fault.kind === "drop-connection") {
        incoming.socket.destroy();
        return;
      }
      if (fault.kind === "rate-limit") {
        const seconds = fault.retryAfterSeconds ?? 1;
        sendProviderError(res, errorStyle, 429, "Rate limit reached (simulated).", {
          headers: { "retry-after": String(seconds) },
        });
        return;
      }
      const status = fault.status ?? 503;
      if (area === "hf-inference" && status === 503 && fault.message === undefined) {
        // What hf-inference says while a cold model loads: clients retry after `estimated_time`.
        sendJson(res, 503, { error: "Model is currently loading", estimated_time: 20 });
        return;
      }
      sendProviderError(res, errorStyle, status, fault.message ?? `Simulated ${status} from ${area}.`);
      return;
    }

    if (area === "hub") return serveHub(request, res, url.pathname);
    if (area === "media") return serveMedia(request, res, url.pathname);

    const provider = mounted.get(area)!;
    const auth = checkAuth(area, provider.definition.auth, incoming.headers, options);
    if (!auth.ok) {
      sendProviderError(res, provider.definition.errors, auth.status, auth.message, {
        code: "invalid_api_key",
      });
      return;
    }
    const seed = ((routed?.request ?? request).json as { seed?: unknown } | undefined)?.seed;
    const paced = pace
      ? drawPace(pace, typeof seed === "number" ? seededRandom(seed) : Math.random)
      : undefined;
    if (paced) {
      await sleep(paced.firstTokenMs);
      if (!res.socket || res.socket.destroyed) return;
    }
    const chunksHeader = Number(headerValue(incoming.headers, "x-sim-stream-chunks"));
    const batchHeader = Number(headerValue(incoming.headers, "x-sim-stream-batch-bytes"));
    const intervalHeader = Number(headerValue(incoming.headers, "x-sim-stream-interval-ms"));
    const context: SimContext = {
      simUrl,
      providerUrl: `${simUrl}/${area}`,
      provider: provider.definition,
      registry,
      jobs,
      takeFault,
      streamChunks:
        Number.isInteger(chunksHeader) && chunksHeader > 0
          ? Math.min(chunksHeader, MAX_STREAM_CHUNKS)
          : options.streamChunks,
      streamBatchBytes:
        Number.isInteger(batchHeader) && batchHeader > 0 ? batchHeader : options.streamBatchBytes,
      streamIntervalMs:
        intervalHeader >= 0 ? intervalHeader : (paced?.tokenIntervalMs ?? options.streamIntervalMs),
      tokenIntervalMs: paced?.tokenIntervalMs,
      jobSteps: options.jobSteps ?? 2,
      streams,
      logger,
    };
    const providerRequest: SimRequest = { ...(routed?.request ?? request), path: providerPath };

    if (
      options.replay !== false &&
      provider.definition.replay !== false &&
      context.streamChunks === undefined
    ) {
      const recording = findRecording({
        provider: area,
        method: request.method,
        path: providerPath + url.search,
        bodyText: providerRequest.bodyText,
        isJson: providerRequest.isJson,
      });
      if (recording) return replayExchange(recording, res, context);
    }

    const match = provider.table.match(request.method, providerPath);
    if (match.kind === "found") return match.route.handler(providerRequest, res, context, match.params);
    if (match.kind === "wrong-method") {
      sendProviderError(res, provider.definition.errors, 405, `Method ${request.method} not allowed here.`, {
        headers: { allow: match.allowed.join(", ") },
      });
      return;
    }
    sendProviderError(
      res,
      provider.definition.errors,
      404,
      `No route ${request.method} ${providerPath} on ${area}.`,
    );
  }

  function serveHub(request: SimRequest, res: ServerResponse, path: string): void {
    const modelPath = /^\/api\/models\/(.+)$/.exec(path);
    if (request.method === "GET" && modelPath) {
      serveModelInfo(request, res, registry, decodeURIComponent(modelPath[1]!), options);
      return;
    }
    if (request.method === "GET" && path === "/api/tasks") {
      serveTasks(res, registry);
      return;
    }
    sendJson(res, 404, { error: `The simulated hub has no ${request.method} ${path}` });
  }

  function serveMedia(request: SimRequest, res: ServerResponse, path: string): void {
    if (request.method !== "GET" && request.method !== "HEAD") {
      sendJson(res, 405, { error: "Media is read-only" });
      return;
    }
    const kind = mediaKindForPath(path);
    // Node leaves the body out of HEAD replies itself; content-length stays the file's.
    sendText(res, 200, mediaBytes(kind), {
      "content-type": MEDIA_CONTENT_TYPES[kind],
    });
  }

  const server = createServer((incoming, res) => {
    handle(incoming, res).catch((error: unknown) => {
      logger.warn?.("provider-sim handler failed", { error: String(error), url: incoming.url });
      if (!res.headersSent) sendJson(res, 500, { error: `Simulator failure: ${String(error)}` });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = options.keepAliveMs ?? 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  simUrl = `http://${host}:${address.port}`;
  logger.info?.("provider-sim listening", { url: simUrl });

  return {
    url: simUrl,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
    get requests() {
      return log.entries;
    },
    clearRequests: () => log.clear(),
    setFault: (fault) => faults.set(fault),
    queueFault: (fault) => faults.add(fault),
    pendingFaults: () => faults.list(),
    models: registry,
    jobs,
    get activeStreams() {
      return streams.active;
    },
    providers: [...mounted.keys()],
    providerUrl: (provider) => `${simUrl}/${provider}`,
  };
}

function isText(incoming: IncomingMessage): boolean {
  const type = headerValue(incoming.headers, "content-type") ?? "";
  return type === "" || type.startsWith("text/") || type.includes("x-www-form-urlencoded");
}
