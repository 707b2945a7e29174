import { buildRequest, type InferenceProvider, type InferenceTask } from "@modelhub/inference";
import type { Context } from "hono";
import type { Dispatcher } from "undici";
import type { MappingTask } from "../catalogue/mapping-record.js";
import { type HubError, InvalidInputError, NotFoundError, UnavailableError } from "../errors.js";
import { parseJsonBody, readBodyBytes } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import type { HubMetrics } from "../http/metrics.js";
import type { Logger } from "../logger.js";
import { compactModelSpan, MODEL_KEYS } from "./call-model.js";
import { callerSignal } from "./caller-signal.js";
import { forwardableCallerHeaders } from "./exchange-heads.js";
import type { ForwardTimeouts } from "./forward.js";
import { hubHopName, refuseLoop, viaAfter } from "./hop-guard.js";
import { type ModelRef, parseModelRef } from "./model-ref.js";
import { type CatalogueReads, createModelRoutes, type ModelRoute } from "./model-routing.js";
import {
  type OwnProvider,
  type OwnProvidersRegistry,
  type OwnProvidersSnapshot,
  visibleSnapshot,
} from "./own-providers-registry.js";
import type { OwnModelKind } from "./own-providers-table.js";
import { callProvider, type ProviderAnswer, RetrySafeFailure } from "./provider-call.js";
import type { ProviderStats } from "./provider-stats.js";
import { recordRouterCall, type UsageRecorder } from "./record-call.js";
import { requestTarget } from "./request-target.js";
import { responseAnswer } from "./responses-answer.js";
import { translateRequest } from "./responses-translate.js";
import { type Candidate, selectProviders } from "./select-providers.js";
import type { CompiledRewrites } from "./stream-rewriter.js";
import type { Upstream, Upstreams } from "./upstreams.js";
import { browserCredentials, type RouterCaller, type VerifyCaller } from "./verify-caller.js";

/** The response header naming the provider that answered (the public router's name for it). */
export const PROVIDER_HEADER = "x-inference-provider";

/** An OpenAI-style endpoint: the task its models are mapped for, and the protocols that speak its format. */
interface Endpoint {
  task: MappingTask & InferenceTask;
  protocols: ReadonlySet<string>;
  /** What an own provider must serve a model for to take this call, and the path after its base URL. */
  own?: { kind: OwnModelKind; path: string };
}

const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  "/v1/chat/completions": {
    task: "conversational",
    protocols: new Set(["openai-chat"]),
    own: { kind: "chat", path: "/chat/completions" },
  },
  "/v1/completions": {
    task: "text-generation",
    protocols: new Set(["openai-completions"]),
    own: { kind: "chat", path: "/completions" },
  },
  "/v1/embeddings": {
    task: "feature-extraction",
    protocols: new Set(["openai-embeddings"]),
    own: { kind: "embeddings", path: "/embeddings" },
  },
  "/v1/images/generations": { task: "text-to-image", protocols: new Set(["openai-images"]) },
};

const MODELS_PATH = "/v1/models/";

/** The API's completion paths (under `/` and, as an alias, under `/router`). */
export const COMPLETION_PATHS: readonly string[] = Object.keys(ENDPOINTS);

export interface OpenAiApiDeps {
  catalogue: CatalogueReads;
  /** Where each call's usage record goes (the router's own table). */
  usage: UsageRecorder;
  upstreams: Upstreams;
  logger: Logger;
  timeouts: ForwardTimeouts;
  maxBodyBytes: number;
  verifyCaller: VerifyCaller;
  stats: ProviderStats;
  forwardSimHeaders?: boolean;
  metrics?: HubMetrics;
  /** The router's undici Agent (provider-agent.ts). */
  dispatcher: Dispatcher;
  /** The provider's key and base URL to scrub from its answers (provider-call.ts). */
  rewritesOf(upstream: Upstream): CompiledRewrites;
  /** The administrator's own OpenAI-compatible servers (own-providers-registry.ts); none when not given. */
  ownProviders?: OwnProvidersRegistry;
  /** The hub's public URL: its name in the `Via` of calls to own providers (hop-guard.ts). */
  publicUrl: string;
}

/**
 * Provider paths already built, by provider, task and provider model id: the client's rules give the same
 * path for the same three every time, and building a request per call to learn it was ~3% of the hub's CPU
 * per hosted call (bench:router zero-latency profile 2026-11-30). Bounded: mappings are few, but ids come
 * from the catalogue, which an administrator may grow.
 */
const providerPaths = new Map<string, string>();
const MAX_PROVIDER_PATHS = 4096;

/** A provider path for (provider, task, provider model id), by the client's routing rules. */
function providerPath(candidate: Candidate, task: InferenceTask): string {
  const key = `${candidate.provider}\n${task}\n${candidate.providerId}`;
  let path = providerPaths.get(key);
  if (path === undefined) {
    const prefix = `http://router/${candidate.provider}`;
    const built = buildRequest({
      provider: candidate.provider,
      task,
      providerModelId: candidate.providerId,
      args: { inputs: "" },
      routerUrl: "http://router",
    });
    path = built.url.slice(prefix.length);
    if (providerPaths.size >= MAX_PROVIDER_PATHS) providerPaths.clear();
    providerPaths.set(key, path);
  }
  return path;
}

/** A provider to try, with what a call to it needs. */
interface Attempt {
  /** A hosted provider of the registry, or an own provider's name. */
  provider: string;
  providerId: string;
  upstream: Upstream;
  path: string;
  /** Set for an own provider (its timeouts are its own). */
  own?: OwnProvider;
}

/** Orders by measured time to headers, unmeasured last; ties keep their order (the sort is stable). */
function fastestFirst(stats: ProviderStats) {
  return (a: Attempt, b: Attempt): number => {
    const speedA = stats.headersMs(a.provider) ?? Number.POSITIVE_INFINITY;
    const speedB = stats.headersMs(b.provider) ?? Number.POSITIVE_INFINITY;
    return speedA === speedB ? 0 : speedA < speedB ? -1 : 1;
  };
}

/**
 * Per provider: whether its chat body is the caller's with only `model` replaced. Asked of the client once per
 * provider (a fixed answer for each of a fixed set), not per call.
 */
const chatBodyKeepsCallers = new Map<string, boolean>();
function keepsCallersChatBody(provider: InferenceProvider): boolean {
  let keeps = chatBodyKeepsCallers.get(provider);
  if (keeps === undefined) {
    keeps = [true, false].every((stream) => {
      const { body } = buildRequest({
        provider,
        task: "conversational",
        providerModelId: "provider/id",
        args: { model: "hub/id", messages: [], stream } as never,
        routerUrl: "http://router",
        stream,
      });
      return JSON.stringify(body) === JSON.stringify({ model: "provider/id", messages: [], stream });
    });
    chatBodyKeepsCallers.set(provider, keeps);
  }
  return keeps;
}

/**
 * The body sent to one provider: the caller's, with the provider's own model id. Where the provider takes
 * the caller's chat body as it is, the id is written into the caller's bytes rather than the body
 * re-serialized: numbers such as a 64-bit seed must reach the provider exactly as sent (openai-api.e2e.test.ts
 * pins it), which JSON.parse/stringify would round.
 */
function providerBody(
  call: Record<string, unknown>,
  raw: Uint8Array,
  candidate: Attempt,
  task: InferenceTask,
): Buffer {
  if (candidate.own) {
    // An OpenAI-compatible server: the caller's body with the server's own model name (spliced into the
    // caller's bytes when they are compact, as for hosted chat).
    const bytes = asBuffer(raw);
    const span = compactModelSpan(bytes);
    if (span) return withModelId(bytes, span, candidate.providerId);
    return Buffer.from(JSON.stringify({ ...call, model: candidate.providerId }));
  }
  if (task === "conversational") {
    const bytes = asBuffer(raw);
    const provider = candidate.provider as InferenceProvider;
    const span = keepsCallersChatBody(provider) ? compactModelSpan(bytes) : undefined;
    if (span) return withModelId(bytes, span, candidate.providerId);
    // The client's chat rules (e.g. servers that take the model from the path), one copy of them.
    const { body } = buildRequest({
      provider,
      task,
      providerModelId: candidate.providerId,
      args: call as never,
      routerUrl: "http://router",
      stream: call.stream === true,
    });
    return Buffer.from(JSON.stringify(body));
  }
  return Buffer.from(JSON.stringify({ ...call, model: candidate.providerId }));
}

/** The bytes as a Buffer: the same object when they are one (node:http's bodies are), else a view of them. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Provider model ids as they go between the quotes of `"model":"…"` (JSON-escaped bytes), by id. */
const modelIdBytes = new Map<string, Buffer>();

/**
 * The caller's bytes with the model's value (`span`) replaced by the provider's id, in one buffer written in
 * place: the id's escaping and bytes made once per id, no views and no list for `Buffer.concat`, on every
 * call (providerBody was ~2% of the hub's CPU per own-provider JSON call, steady-state perf profile,
 * bench/results/2026-11-30-router-percall.md).
 */
function withModelId(bytes: Buffer, span: { start: number; end: number }, providerId: string): Buffer {
  let id = modelIdBytes.get(providerId);
  if (id === undefined) {
    id = Buffer.from(JSON.stringify(providerId).slice(1, -1));
    if (modelIdBytes.size >= MAX_PROVIDER_PATHS) modelIdBytes.clear();
    modelIdBytes.set(providerId, id);
  }
  const spliced = Buffer.allocUnsafe(bytes.byteLength - (span.end - span.start) + id.byteLength);
  bytes.copy(spliced, 0, 0, span.start);
  id.copy(spliced, span.start);
  bytes.copy(spliced, span.start + id.byteLength, span.end);
  return spliced;
}

/**
 * A provider's answer as the route's own Response, its headers the very `Headers` the answer was given with
 * (the request envelope then adds the hub's). Not `c.body(body, { headers })`: Hono copies such headers into
 * a new `Headers` one validated `set` at a time, for every call (bench:router zero-latency profile
 * 2026-11-30). Nothing sets headers on these routes before the handler; CORS (with `Origin`) writes to
 * `c.res`, whose headers Hono carries over onto a Response the handler returns.
 */
export function answerOf(answer: ProviderAnswer): Response {
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
}

/**
 * The OpenAI-compatible router: `POST /v1/chat/completions`, `/v1/embeddings`, `/v1/images/generations` with
 * `model` as `owner/name[:provider|:fastest|:cheapest]`, and `GET /v1/models[/{id}]`. Without a named provider
 * the call goes to the first provider of the selection and, on a failure safe to retry (unreachable, 5xx or
 * 429 before the first byte), to the next; the `x-inference-provider` header says which one answered.
 */
export function createOpenAiApi(deps: OpenAiApiDeps) {
  const modelRoute = createModelRoutes(deps.catalogue);
  const hopName = hubHopName(deps.publicUrl);

  /** The hosted providers to try, in order, among those configured on this hub. */
  function hostedAttempts(
    route: ModelRoute,
    ref: ModelRef,
    endpoint: Endpoint,
    preferredProviders: readonly string[],
  ): Attempt[] {
    const attempts: Attempt[] = [];
    for (const candidate of selectProviders({
      ref,
      mappings: route.mappings,
      task: endpoint.task,
      protocols: endpoint.protocols,
      preferredProviders,
      stats: deps.stats,
    })) {
      const upstream = deps.upstreams.get(candidate.provider);
      if (upstream) attempts.push({ ...candidate, upstream, path: providerPath(candidate, endpoint.task) });
    }
    return attempts;
  }

  /**
   * The providers to try, in order: an own provider named alone; else the own providers serving the model
   * that are up (in the order they were added: the hub's own hardware first, and the cheapest), then the
   * hosted ones, unless an own provider serving the model keeps its calls off hosted providers. `:fastest`
   * orders them all by measured time to headers.
   */
  async function attemptsOf(
    route: ModelRoute,
    ref: ModelRef,
    endpoint: Endpoint,
    own: OwnProvidersSnapshot | undefined,
    preferredProviders: () => Promise<readonly string[]>,
  ): Promise<Attempt[]> {
    const registry = deps.ownProviders;
    const served = own && endpoint.own ? own.servedBy(route.model.id, endpoint.own.kind) : [];
    const ownAttempt = ({ provider, servedName }: (typeof served)[number]): Attempt => ({
      provider: provider.name,
      providerId: servedName,
      upstream: provider.upstream,
      path: endpoint.own!.path,
      own: provider,
    });
    if (registry && ref.provider && own?.providers.has(ref.provider)) {
      const named = served.find((entry) => entry.provider.name === ref.provider);
      if (!named) {
        throw new InvalidInputError(
          `Model ${ref.model} is not served for ${endpoint.task} by provider ${ref.provider} on this hub.`,
        );
      }
      if (!registry.isUp(ref.provider)) {
        throw new UnavailableError(
          `Provider ${ref.provider} is failing its health checks: call ${ref.model} without naming it, or later.`,
        );
      }
      return [ownAttempt(named)];
    }
    const ownUp = ref.provider ? [] : served.filter((entry) => registry!.isUp(entry.provider.name));
    const attempts = ownUp.map(ownAttempt);
    if (ref.provider || served.every((entry) => entry.provider.hostedFailover)) {
      try {
        // A named provider needs no preference; otherwise read per call: a new order applies to the next call.
        attempts.push(
          ...hostedAttempts(route, ref, endpoint, ref.provider ? [] : await preferredProviders()),
        );
      } catch (error) {
        // No hosted provider serves it: the own ones answer, or say they are down.
        if (served.length === 0) throw error;
      }
    }
    if (attempts.length === 0 && served.length > 0) {
      throw new UnavailableError(
        `Every provider of ${route.model.id} is down (failing health checks: ${served.map((entry) => entry.provider.name).join(", ")}).`,
      );
    }
    if (ref.policy === "fastest" && ownUp.length > 0) attempts.sort(fastestFirst(deps.stats));
    if (ref.policy === "preferred") {
      // Strictly the caller's stored order, own providers among them; those not listed after, as they were.
      const order = new Map((await preferredProviders()).map((name, index) => [name, index]));
      const rank = (attempt: Attempt) => order.get(attempt.provider) ?? order.size;
      attempts.sort((a, b) => rank(a) - rank(b));
    }
    if (ref.policy === "cheapest" && own) {
      // By the configured prices (input plus output per million tokens); unpriced providers last.
      const price = (attempt: Attempt) => {
        const offer = own.offerOf(attempt.provider, route.model.id);
        return offer && (offer.inputPrice !== null || offer.outputPrice !== null)
          ? (offer.inputPrice ?? 0) + (offer.outputPrice ?? 0)
          : Number.POSITIVE_INFINITY;
      };
      attempts.sort((a, b) => (price(a) === price(b) ? 0 : price(a) < price(b) ? -1 : 1));
    }
    return attempts;
  }

  /**
   * Output tokens per second of a whole answer (its `usage.completion_tokens` over the call's time): what
   * `/v1/models` reports as throughput. Streamed answers are not read here.
   */
  function recordThroughput(provider: string, modelId: string, answer: ProviderAnswer, ms: number): void {
    if (answer.status !== 200 || !(answer.body instanceof Uint8Array) || answer.body.byteLength > 65_536)
      return;
    const tokens = completionTokens(answer.body);
    if (tokens !== undefined) deps.stats.recordThroughput(provider, modelId, tokens, ms);
  }

  /** A provider entry of `/v1/models`, in the public router's shape: what is configured and measured. */
  function providerEntry(
    own: OwnProvidersSnapshot | undefined,
    modelId: string,
    entry: { provider: string; status: string; providerId: string },
  ): Record<string, unknown> {
    const offer = own?.offerOf(entry.provider, modelId);
    const latency = deps.stats.headersMs(entry.provider, modelId);
    const throughput = deps.stats.throughput(entry.provider, modelId);
    const pricing =
      offer && (offer.inputPrice !== null || offer.outputPrice !== null)
        ? {
            ...(offer.inputPrice !== null ? { input: offer.inputPrice } : {}),
            ...(offer.outputPrice !== null ? { output: offer.outputPrice } : {}),
          }
        : undefined;
    return {
      ...entry,
      ...(offer?.contextLength != null ? { context_length: offer.contextLength } : {}),
      ...(pricing ? { pricing } : {}),
      ...(latency !== undefined ? { first_token_latency_ms: Math.round(latency * 10) / 10 } : {}),
      ...(throughput !== undefined ? { throughput } : {}),
      is_model_author: false,
    };
  }

  /** The own providers a caller may see and use: the site's, and those of the caller's organizations. */
  async function ownProvidersOf(caller: RouterCaller | undefined): Promise<OwnProvidersSnapshot | undefined> {
    const all = await deps.ownProviders?.snapshot();
    if (!all?.hasOrgProviders) return all;
    return visibleSnapshot(all, caller ? await caller.providerOrgs() : new Set());
  }

  async function listModels(
    caller: RouterCaller | undefined,
  ): Promise<{ object: "list"; data: { id: string }[] }> {
    const data = [];
    const served = new Map<string, { provider: string; status: string; providerId: string }[]>();
    for (const [modelId, mappings] of await deps.catalogue.mappingsForTask("conversational")) {
      served.set(
        modelId,
        Object.entries(mappings)
          .filter(([provider, mapping]) => mapping.status === "live" && deps.upstreams.isKnown(provider))
          .map(([provider, mapping]) => ({
            provider,
            status: mapping.status,
            providerId: mapping.providerId,
          })),
      );
    }
    const registry = deps.ownProviders;
    const own = await ownProvidersOf(caller);
    if (registry && own) {
      // Own providers that are up come first, as the router tries them.
      for (const [modelId, list] of own.modelsServed("chat")) {
        const up = list
          .filter((entry) => registry.isUp(entry.provider.name))
          .map((entry) => ({ provider: entry.provider.name, status: "live", providerId: entry.servedName }));
        served.set(modelId, [...up, ...(served.get(modelId) ?? [])]);
      }
    }
    for (const [modelId, providers] of served) {
      if (providers.length === 0) continue;
      const model = await deps.catalogue.find(modelId);
      // Listed without credentials: private models never appear.
      if (!model || model.private) continue;
      data.push({
        id: model.id,
        object: "model",
        created: Math.floor(Date.parse(model.createdAt) / 1000),
        owned_by: model.author,
        providers: providers.map((entry) => providerEntry(own, model.id, entry)),
      });
    }
    return { object: "list", data };
  }

  /** One completion: the caller checked, the model resolved and checked, then each provider in turn. */
  async function complete(c: Context<HubEnv>, path: string): Promise<Response> {
    const startedMs = performance.now();
    const caller = await deps.verifyCaller(
      c.req.header("authorization"),
      c.req.header("x-hf-bill-to"),
      browserCredentials(c),
    );
    const raw = await readBodyBytes(c, deps.maxBodyBytes);
    const body = jsonObjectOf(raw);
    refuseSecondModelKey(body);
    const answer = await route(c, ENDPOINTS[path]!, caller, body, raw, startedMs);
    // The provider's answer is the caller's: its call's line (record-call.ts) is the request's log line.
    c.set("requestLoggedByRoute", true);
    return answerOf(answer);
  }

  /**
   * `POST /v1/responses`: the Responses API over chat completions (responses-translate.ts). The caller's
   * body becomes a chat body routed as any chat call (selection, failover, usage); a 2xx answer comes back
   * as a Response object or its stream of events, an error answer as the provider gave it.
   */
  async function responses(c: Context<HubEnv>): Promise<Response> {
    const startedMs = performance.now();
    const caller = await deps.verifyCaller(
      c.req.header("authorization"),
      c.req.header("x-hf-bill-to"),
      browserCredentials(c),
    );
    const body = jsonObjectOf(await readBodyBytes(c, deps.maxBodyBytes));
    refuseSecondModelKey(body);
    const translated = translateRequest(body);
    const chatRaw = Buffer.from(JSON.stringify(translated.chat));
    const answer = await route(
      c,
      ENDPOINTS["/v1/chat/completions"]!,
      caller,
      translated.chat,
      chatRaw,
      startedMs,
    );
    const translatedAnswer = await responseAnswer(answer, translated);
    // Only once translated: an answer that cannot be (502) is logged by the envelope with its own status.
    c.set("requestLoggedByRoute", true);
    return answerOf(translatedAnswer);
  }

  /** The model resolved and checked for the caller, then each provider in turn: the first answer given. */
  async function route(
    c: Context<HubEnv>,
    endpoint: Endpoint,
    caller: RouterCaller,
    body: Record<string, unknown>,
    raw: Uint8Array,
    startedMs: number,
  ): Promise<ProviderAnswer> {
    // A call that came back through an own provider (hop-guard.ts) is refused before it could go round again.
    const via = c.req.header("via");
    refuseLoop(via, hopName);
    const own = await ownProvidersOf(caller);
    const ref = parseModelRef(body.model, (name) => own?.providers.has(name) === true);
    const route = await modelRoute(ref.model);
    if (!route) throw new NotFoundError(`Model ${ref.model} does not exist on this hub.`);
    const model = route.model;
    // A private model the caller may not see answers exactly as a missing one; a gated one needs the grant
    // its files need.
    if (model.private || model.gated) await caller.mayUse(model, ref.model);
    const candidates = await attemptsOf(route, ref, endpoint, own, () => caller.preferredProviders());
    if (candidates.length === 0) {
      throw new UnavailableError(`No provider of ${model.id} is configured on this hub.`);
    }
    const requestId = c.get("requestId");
    for (const [index, candidate] of candidates.entries()) {
      const upstream = candidate.upstream;
      const upstreamBody = providerBody(body, raw, candidate, endpoint.task);
      const next = candidates[index + 1];
      const started = performance.now();
      const answer = await callProvider({
        dispatcher: candidate.own?.dispatcher ?? deps.dispatcher,
        upstream,
        rewrites: deps.rewritesOf(upstream),
        method: "POST",
        pathAndQuery: candidate.path,
        callerHeaders: forwardableCallerHeaders(c.req, deps.forwardSimHeaders === true),
        forwardSimHeaders: deps.forwardSimHeaders === true,
        via: candidate.own ? viaAfter(via, hopName) : undefined,
        keyRefusalIsHubs: candidate.own !== undefined,
        body: upstreamBody,
        streamExpected: body.stream === true,
        requestId,
        timeouts: candidate.own?.timeouts ?? deps.timeouts,
        extraHeaders: { [PROVIDER_HEADER]: candidate.provider },
        signal: callerSignal(c),
        canFailOver: next !== undefined,
        onHeaders: (ms) => deps.stats.record(candidate.provider, ms, model.id),
        onDone: (result) =>
          recordRouterCall(
            deps,
            {
              requestId,
              method: "POST",
              path: c.req.path,
              startedMs,
              tokenId: caller.tokenId,
              userId: caller.userId,
              // An organization's provider serves its members at its cost: the call is counted under it.
              billToId: candidate.own?.orgId ?? caller.billToId,
              provider: candidate.provider,
              model: model.id,
              target: upstream.target,
              requestBytes: upstreamBody.byteLength,
            },
            result,
          ),
      });
      if (!(answer instanceof RetrySafeFailure)) {
        recordThroughput(candidate.provider, model.id, answer, performance.now() - started);
        return answer;
      }
      // An own server that could not be reached is skipped from now until a health check finds it up.
      if (candidate.own && answer.status === 502)
        deps.ownProviders?.markDown(candidate.provider, "unreachable");
      // Its key is wrong: skipped too, until a check finds it up (or its admin sets the key again).
      if (candidate.own && (answer.status === 401 || answer.status === 403))
        deps.ownProviders?.markDown(candidate.provider, `refused the hub's key (${answer.status})`);
      deps.logger.log("warn", "router failover", {
        requestId,
        provider: candidate.provider,
        status: answer.status,
        next: next?.provider,
      });
    }
    // The last attempt never fails over: it answers or throws.
    throw new Error("unreachable: the last provider's attempt answers or throws");
  }

  /**
   * A credential sent with the model list, which is open to anyone as the public router's is: a wrong one
   * (unknown, expired, revoked) is refused, because clients check a key with this call and must learn of a
   * wrong one here rather than on their first completion; a valid one that may not run inference still sees
   * the list, as the hub's other public routes treat it.
   */
  async function checkCredential(authorization: string | undefined): Promise<RouterCaller | undefined> {
    if (authorization === undefined) return undefined;
    try {
      return await deps.verifyCaller(authorization, undefined);
    } catch (error) {
      if ((error as Partial<HubError>).status !== 403) throw error;
      return undefined;
    }
  }

  return {
    complete,
    responses,

    /** `GET /v1/models`; GET answers vary with `Origin` (CORS headers or none) for shared caches. */
    async models(c: Context<HubEnv>): Promise<Response> {
      const caller = await checkCredential(c.req.header("authorization"));
      // Organizations' providers are listed to their members: the answer depends on the credential.
      return c.json(await listModels(caller), 200, { Vary: "Origin, Authorization" });
    },

    /** `GET /v1/models/{id}`: clients send the id as is (`owner/name`) or with its slash encoded. */
    async model(c: Context<HubEnv>): Promise<Response> {
      const caller = await checkCredential(c.req.header("authorization"));
      const path = requestTarget(c).split("?")[0]!;
      const id = modelIdOfPath(path.slice(path.indexOf(MODELS_PATH) + MODELS_PATH.length));
      const model = (await listModels(caller)).data.find((served) => served.id === id);
      if (!model) {
        throw new NotFoundError(
          `Model ${id} is not served by this router: GET /v1/models lists those that are.`,
        );
      }
      return c.json(model, 200, { Vary: "Origin, Authorization" });
    },
  };
}

const COMPLETION_TOKENS_KEY = Buffer.from('"completion_tokens"');

/**
 * The `completion_tokens` of a whole chat answer's usage, found without parsing the answer (a parse and a
 * copy of every JSON answer was ~2% of the hub's CPU per call, bench:router 2026-11-30). Inside a JSON
 * string a quote is always escaped, so the key's bytes followed by `:` are a key, never text of the answer;
 * the last one is taken (usage comes last). Only a statistic (`/v1/models` throughput) rests on it.
 */
export function completionTokens(body: Uint8Array): number | undefined {
  const bytes = asBuffer(body);
  const at = bytes.lastIndexOf(COMPLETION_TOKENS_KEY);
  if (at === -1) return undefined;
  // `\s*:\s*(\d+)` within the 48 bytes from the key, read byte by byte: no string, no regex per answer.
  const end = Math.min(at + 48, bytes.byteLength);
  let i = skipSpaces(bytes, at + COMPLETION_TOKENS_KEY.byteLength, end);
  if (i >= end || bytes[i] !== 0x3a) return undefined;
  i = skipSpaces(bytes, i + 1, end);
  const first = i;
  while (i < end && bytes[i]! >= 0x30 && bytes[i]! <= 0x39) i++;
  return i > first ? Number(bytes.toString("latin1", first, i)) : undefined;
}

/** The first byte from `from` (before `end`) that is not a space as `\s` matches in latin1 text. */
function skipSpaces(bytes: Buffer, from: number, end: number): number {
  let i = from;
  while (i < end && (bytes[i] === 0x20 || (bytes[i]! >= 0x09 && bytes[i]! <= 0x0d) || bytes[i] === 0xa0)) i++;
  return i;
}

/** The request body as a JSON object, or a 400 saying it must be one. */
function jsonObjectOf(raw: Uint8Array): Record<string, unknown> {
  const parsed = parseJsonBody(raw);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new InvalidInputError("The request body must be a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

/**
 * A body naming a model under a second key (`Model`, `model_name`): the caller's bytes go to the provider,
 * and a server that matches keys without regard to case, or reads `model_name`, would run that model, not
 * the one checked and routed here.
 */
function refuseSecondModelKey(body: Record<string, unknown>): void {
  for (const key of Object.keys(body)) {
    if (key !== "model" && MODEL_KEYS.has(key.toLowerCase())) {
      throw new InvalidInputError(`Name the model once, as "model" (not also as "${key.slice(0, 40)}").`);
    }
  }
}

/** The model id of `/v1/models/{id}`: clients send it as is (`owner/name`) or with its slash encoded. */
function modelIdOfPath(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new InvalidInputError(`"${encoded.slice(0, 200)}" is not a valid percent-encoded model id.`);
  }
}
