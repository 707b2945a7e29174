import { buildRequest, type InferenceProvider, type InferenceTask } from "@modelhub/inference";
import type { MappingTask } from "../catalogue/mapping-record.js";
import { type HubError, InvalidInputError, NotFoundError, UnavailableError } from "../errors.js";
import { parseJsonBody } from "../http/body.js";
import type { HubMetrics } from "../http/metrics.js";
import type { Logger } from "../logger.js";
import type { Store } from "../store/store.js";
import { compactModelSpan, MODEL_KEYS } from "./call-model.js";
import { type CallerRequest, type CallerResponse, readCallerBody } from "./caller-exchange.js";
import type { ForwardTimeouts } from "./forward.js";
import { type ModelRef, parseModelRef } from "./model-ref.js";
import { createModelRoutes, type ModelRoute } from "./model-routes.js";
import { pipeToProvider } from "./pipe-forward.js";
import type { ProviderStats } from "./provider-stats.js";
import { recordRouterCall } from "./record-call.js";
import { type Candidate, selectProviders } from "./select-providers.js";
import type { Upstream, Upstreams } from "./upstreams.js";
import type { VerifyCaller } from "./verify-caller.js";

/** The response header naming the provider that answered (the public router's name for it). */
export const PROVIDER_HEADER = "x-inference-provider";

/** An OpenAI-style endpoint: the task its models are mapped for, and the protocols that speak its format. */
interface Endpoint {
  task: MappingTask & InferenceTask;
  protocols: ReadonlySet<string>;
}

const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  "/v1/chat/completions": { task: "conversational", protocols: new Set(["openai-chat"]) },
  "/v1/embeddings": { task: "feature-extraction", protocols: new Set(["openai-embeddings"]) },
  "/v1/images/generations": { task: "text-to-image", protocols: new Set(["openai-images"]) },
};

/** What the OpenAI-compatible API answers, as the route inventory names it (`/router/v1/...` is an alias). */
export const OPENAI_API_ROUTES: readonly string[] = [
  ...Object.keys(ENDPOINTS).map((path) => `POST ${path}`),
  "GET /v1/models",
];

export interface OpenAiApiDeps {
  store: Store;
  upstreams: Upstreams;
  logger: Logger;
  timeouts: ForwardTimeouts;
  maxBodyBytes: number;
  verifyCaller: VerifyCaller;
  publicUrl: () => string;
  stats: ProviderStats;
  forwardSimHeaders?: boolean;
  metrics?: HubMetrics;
}

export interface ApiCall {
  incoming: CallerRequest;
  outgoing: CallerResponse;
  /** `/v1/...`, with the `/router` alias prefix removed and without the query string. */
  path: string;
  requestId: string;
  /** Headers every answer carries (request id, CORS, security), as a flat `[name, value, ...]` list. */
  baseHeaders: readonly string[];
  sendError(error: unknown): void;
}

/** How many distinct `model` values are remembered parsed (then forgotten all at once). */
const MAX_CACHED_REFS = 1000;

/** A provider path for (provider, task, provider model id), computed once by the client's routing rules. */
const providerPaths = new Map<string, string>();
function providerPath(candidate: Candidate, task: InferenceTask): string {
  const key = `${candidate.provider}\u0000${task}\u0000${candidate.providerId}`;
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
    if (providerPaths.size > 10_000) providerPaths.clear();
    providerPaths.set(key, path);
  }
  return path;
}

/** A provider to try, with what every call to it needs, worked out once per selection. */
interface Attempt extends Candidate {
  upstream: Upstream;
  path: string;
  /** The provider's model id as bytes inside a JSON string, when its chat body is the caller's (else unset). */
  idBytes?: Buffer;
}

function attemptOf(candidate: Candidate, upstream: Upstream, task: InferenceTask): Attempt {
  return {
    provider: candidate.provider,
    providerId: candidate.providerId,
    upstream,
    path: providerPath(candidate, task),
    idBytes:
      task === "conversational" && keepsCallersChatBody(candidate.provider)
        ? Buffer.from(JSON.stringify(candidate.providerId).slice(1, -1))
        : undefined,
  };
}

/** Per provider: whether its chat body is the caller's with only `model` replaced (asked of the client once). */
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

/** The body sent to one provider: the caller's, with the provider's own model id. */
function providerBody(
  call: Record<string, unknown>,
  raw: Buffer,
  candidate: Attempt,
  task: InferenceTask,
): Buffer {
  if (task === "conversational") {
    // Where the provider takes the caller's body with its own model id, the id is written into the caller's
    // bytes (nothing re-serialized: numbers such as a 64-bit seed reach the provider exactly as sent).
    const span = candidate.idBytes ? compactModelSpan(raw) : undefined;
    if (span) {
      return Buffer.concat([raw.subarray(0, span.start), candidate.idBytes!, raw.subarray(span.end)]);
    }
    // The client's chat rules (e.g. servers that take the model from the path), one copy of them.
    const { body } = buildRequest({
      provider: candidate.provider,
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

/**
 * The OpenAI-compatible router: `POST /v1/chat/completions`, `/v1/embeddings`, `/v1/images/generations` with
 * `model` as `owner/name[:provider|:fastest|:cheapest]`, and `GET /v1/models`. Without a named provider the
 * call goes to the first provider of the selection and, on a failure safe to retry (unreachable, 5xx or 429
 * before the first byte), to the next; the `x-inference-provider` header says which one answered.
 */
export function createOpenAiApi(deps: OpenAiApiDeps) {
  const modelRoute = createModelRoutes(deps.store);
  /** Parsed `model` values (a few distinct ones come again and again), valid ones only. */
  const modelRefs = new Map<string, ModelRef>();
  /**
   * The attempts of calls naming their provider, per endpoint, then per model route, then per provider. Keyed
   * by the route object, which the route cache replaces when it expires: a changed mapping or upstream id
   * shows here exactly as late as in the route itself, and an old route's entries go with it.
   */
  const namedSelections = new Map<Endpoint, WeakMap<ModelRoute, Map<string, Attempt[]>>>(
    Object.values(ENDPOINTS).map((endpoint) => [endpoint, new WeakMap()]),
  );

  function modelRefOf(value: unknown): ModelRef {
    const known = typeof value === "string" ? modelRefs.get(value) : undefined;
    if (known) return known;
    const ref = parseModelRef(value);
    if (modelRefs.size >= MAX_CACHED_REFS) modelRefs.clear();
    modelRefs.set(value as string, ref);
    return ref;
  }

  /** The providers to try, in order, among those configured on this hub. */
  function attemptsOf(
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
      if (upstream) attempts.push(attemptOf(candidate, upstream, endpoint.task));
    }
    return attempts;
  }

  /** A named provider's attempt: no policy, no preference, so the same while the route is. */
  function namedAttempts(route: ModelRoute, ref: ModelRef, endpoint: Endpoint): Attempt[] {
    const ofEndpoint = namedSelections.get(endpoint)!;
    let ofRoute = ofEndpoint.get(route);
    if (!ofRoute) {
      ofRoute = new Map();
      ofEndpoint.set(route, ofRoute);
    }
    let attempts = ofRoute.get(ref.provider!);
    if (!attempts) {
      attempts = attemptsOf(route, ref, endpoint, []);
      ofRoute.set(ref.provider!, attempts);
    }
    return attempts;
  }

  async function listModels(): Promise<{ object: "list"; data: { id: string }[] }> {
    const data = [];
    for (const [modelId, mappings] of await deps.store.mappings.forTask("conversational")) {
      const providers = Object.entries(mappings)
        .filter(([provider, mapping]) => mapping.status === "live" && deps.upstreams.isKnown(provider))
        .map(([provider, mapping]) => ({ provider, status: mapping.status, providerId: mapping.providerId }));
      if (providers.length === 0) continue;
      const model = await deps.store.models.get(modelId);
      // Listed without credentials: private models never appear.
      if (!model || model.private) continue;
      data.push({
        id: model.id,
        object: "model",
        created: Math.floor(Date.parse(model.createdAt) / 1000),
        owned_by: model.author,
        providers,
      });
    }
    return { object: "list", data };
  }

  function sendJson(call: ApiCall, status: number, value: unknown): void {
    const body = JSON.stringify(value);
    call.outgoing.writeHead(status, [
      ...call.baseHeaders,
      "content-type",
      "application/json",
      "content-length",
      String(Buffer.byteLength(body)),
    ]);
    call.outgoing.end(body);
  }

  async function complete(call: ApiCall, endpoint: Endpoint): Promise<void> {
    const billTo = call.incoming.headers["x-hf-bill-to"];
    const caller = await deps.verifyCaller(
      call.incoming.headers.authorization,
      typeof billTo === "string" ? billTo : undefined,
    );
    const raw = await readCallerBody(call.incoming, deps.maxBodyBytes);
    const parsed = parseJsonBody(raw);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new InvalidInputError("The request body must be a JSON object.");
    }
    const body = parsed as Record<string, unknown>;
    refuseSecondModelKey(body);
    const ref = modelRefOf(body.model);
    const found = modelRoute(ref.model);
    const route = found instanceof Promise ? await found : found;
    if (!route) throw new NotFoundError(`Model ${ref.model} does not exist on this hub.`);
    const model = route.model;
    // A private model the caller may not see answers exactly as a missing one; a gated one needs the grant
    // its files need. Public, ungated models (the usual case) are decided without a promise.
    if (model.private || model.gated) await caller.mayUse(model, ref.model);
    const candidates = ref.provider
      ? namedAttempts(route, ref, endpoint)
      : // Read per call that lets the router choose: a new order applies to the next call.
        attemptsOf(route, ref, endpoint, await caller.preferredProviders());
    if (candidates.length === 0) {
      throw new UnavailableError(`No provider of ${model.id} is configured on this hub.`);
    }

    // The attempts are methods of one object, not named arrows: see answerApi in node-router.ts.
    const attempts = {
      attempt(index: number): void {
        const candidate = candidates[index]!;
        const upstream = candidate.upstream;
        const upstreamBody = providerBody(body, raw, candidate, endpoint.task);
        const isLast = index === candidates.length - 1;
        pipeToProvider({
          upstream,
          method: "POST",
          pathAndQuery: candidate.path,
          publicUrl: deps.publicUrl(),
          headers: call.incoming.headers,
          forwardSimHeaders: deps.forwardSimHeaders === true,
          body: upstreamBody,
          requestId: call.requestId,
          timeouts: deps.timeouts,
          outgoing: call.outgoing,
          answerHeaders: [...call.baseHeaders, PROVIDER_HEADER, candidate.provider],
          sendError(error: HubError) {
            call.sendError(error);
          },
          onHeaders(ms) {
            deps.stats.record(candidate.provider, ms);
          },
          onRetrySafeFailure: isLast
            ? undefined
            : (status) => {
                deps.logger.log("warn", "router failover", {
                  requestId: call.requestId,
                  provider: candidate.provider,
                  status,
                  next: candidates[index + 1]!.provider,
                });
                attempts.start(index + 1);
              },
          onDone(result) {
            recordRouterCall(
              deps,
              {
                requestId: call.requestId,
                tokenId: caller.tokenId,
                userId: caller.userId,
                billToId: caller.billToId,
                provider: candidate.provider as InferenceProvider,
                model: model.id,
                target: upstream.target,
                requestBytes: upstreamBody.byteLength,
              },
              result,
            );
          },
        });
      },
      start(index: number): void {
        try {
          attempts.attempt(index);
        } catch (error) {
          call.sendError(error);
        }
      },
    };
    attempts.start(0);
  }

  /**
   * A credential sent with the model list, which is open to anyone as the public router's is: a wrong one
   * (unknown, expired, revoked) is refused, because clients check a key with this call and must learn of a
   * wrong one here rather than on their first completion; a valid one that may not run inference still sees
   * the list, as the hub's other public routes treat it.
   */
  async function checkCredential(authorization: string): Promise<void> {
    try {
      await deps.verifyCaller(authorization, undefined);
    } catch (error) {
      if ((error as Partial<HubError>).status !== 403) throw error;
    }
  }

  /** `GET /v1/models` and `/v1/models/{id}`, or the hub's 404 for any other API call. */
  async function answerOther(call: ApiCall): Promise<void> {
    const method = call.incoming.method;
    const listing = call.path === "/v1/models";
    if (method === "GET" && (listing || call.path.startsWith("/v1/models/"))) {
      const { authorization } = call.incoming.headers;
      if (authorization !== undefined) await checkCredential(authorization);
      const models = await listModels();
      if (listing) return sendJson(call, 200, models);
      const id = modelIdOfPath(call.path.slice("/v1/models/".length));
      const model = models.data.find((served) => served.id === id);
      if (!model) {
        throw new NotFoundError(
          `Model ${id} is not served by this router: GET /v1/models lists those that are.`,
        );
      }
      return sendJson(call, 200, model);
    }
    throw new NotFoundError(
      `No route for ${method} ${call.path}: the router offers POST ${Object.keys(ENDPOINTS).join(", ")} and GET /v1/models[/{id}].`,
    );
  }

  return {
    /** Whether `path` (after the `/router` alias prefix) is one of this API's. */
    handles(path: string): boolean {
      return path.startsWith("/v1/");
    },

    /** Not async: a completion's own promise is passed on (each async layer costs a promise and a tick). */
    handle(call: ApiCall): Promise<void> {
      const endpoint = ENDPOINTS[call.path];
      if (endpoint && call.incoming.method === "POST") return complete(call, endpoint);
      return answerOther(call);
    },
  };
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
