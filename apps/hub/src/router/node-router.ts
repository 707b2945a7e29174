import { randomUUID } from "node:crypto";
import type { InferenceProvider } from "@modelhub/inference";
import {
  errorBody,
  HubError,
  InvalidInputError,
  NotFoundError,
  PayloadTooLargeError,
  UnavailableError,
} from "../errors.js";
import type { HubMetrics } from "../http/metrics.js";
import type { Logger } from "../logger.js";
import type { Store } from "../store/store.js";
import { modelsOfCall } from "./call-model.js";
import { type CallerRequest, type CallerResponse, readCallerBody } from "./caller-exchange.js";
import type { ForwardTimeouts } from "./forward.js";
import { InferenceRoutes } from "./inference-routes.js";
import { createServedModels, createServedVersions, type ModelRoute } from "./model-routes.js";
import { createOpenAiApi } from "./openai-api.js";
import { pipeToProvider } from "./pipe-forward.js";
import { providerPathFrom } from "./provider-path.js";
import { createProviderStats, type ProviderStats } from "./provider-stats.js";
import { recordRouterCall } from "./record-call.js";
import { PIPED_SECURITY_HEADERS, ROUTER_CORS_HEADERS, ROUTER_SECURITY_HEADERS } from "./response-headers.js";
import type { Upstreams } from "./upstreams.js";
import type { RouterCaller, VerifyCaller } from "./verify-caller.js";

export interface NodeRouterDeps {
  store: Store;
  upstreams: Upstreams;
  logger: Logger;
  timeouts: ForwardTimeouts;
  maxBodyBytes: number;
  /** The hub's public URL (http/public-url.ts), read per call: provider URLs in answers are moved onto it. */
  publicUrl: () => string;
  /** Who may call the router (see verify-caller.ts). */
  verifyCaller: VerifyCaller;
  /**
   * Pass the simulator's `x-sim-*` fault-injection headers from callers to provider-sim (tests and the
   * benchmark only). Off by default: a caller must not be able to make the hub's upstream misbehave.
   */
  forwardSimHeaders?: boolean;
  /** Providers' measured speed (for `:fastest`); one per hub process by default. */
  stats?: ProviderStats;
  /** Counts each finished call (per provider and status) for `/metrics`. */
  metrics?: HubMetrics;
  /** The calls `/router/{provider}/...` forwards: by default each provider's inference calls, as the client
   * makes them. */
  inferenceRoutes?: InferenceRoutes;
}

/** A model only some callers may run (private: its owner's members; gated: those granted access). */
function isRestricted(model: ModelRoute["model"]): boolean {
  return model.private || Boolean(model.gated);
}

/** A `.` or `..` path segment, literal or percent-encoded (as the app's dot-segment guard refuses them). */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$|\?|#)/i;
/**
 * Request targets made only of characters that URL parsing leaves as they are. Anything else (quotes, spaces,
 * backslashes, non-ASCII...) is refused rather than guessed at.
 */
const PLAIN_TARGET = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/;
/** What hono/request-id accepts from a caller's X-Request-Id. */
const CALLER_REQUEST_ID = /^[\w\-=]{1,255}$/;
const PREFIX = "/router/";
/** The per-provider routes, as the route inventory names them. */
export const PROVIDER_ROUTES = ["GET /router/{provider}/{path}", "POST /router/{provider}/{path}"] as const;
/** The OpenAI-compatible API, at the root and under the router's prefix (`/router/v1/...`). */
const API_PREFIX = "/v1/";
const ROUTER_API_PREFIX = "/router/v1/";
/** Headers every router answer carries after its request id, as a flat `[name, value, ...]` list. */
const ANSWER_HEADERS: readonly string[] = Object.entries(PIPED_SECURITY_HEADERS).flat();
/** The same, for a browser's cross-origin call (one that sends `Origin`): CORS headers first. */
const CORS_ANSWER_HEADERS: readonly string[] = Object.entries({
  ...ROUTER_CORS_HEADERS,
  ...PIPED_SECURITY_HEADERS,
}).flat();
/**
 * A GET answer may be stored by a shared cache: it varies with `Origin` (CORS headers or none), whether or not
 * this call sent one. POST answers are not reused by caches, and errors are `no-store`.
 */
const VARY_ORIGIN: readonly string[] = ["vary", "Origin"];
/** How many checked per-provider targets are remembered (then forgotten all at once). */
const MAX_CHECKED_TARGETS = 1000;

/** Whether the router answers a request (by its method and target); CORS preflights are the app's. */
export function isRouterRequest(method: string, target: string): boolean {
  return (
    (method === "POST" || method === "GET") && (target.startsWith(API_PREFIX) || target.startsWith(PREFIX))
  );
}

/** A checked `/router/{provider}/...` target. */
interface ProviderTarget {
  provider: InferenceProvider;
  pathname: string;
  /** The path after `/router/{provider}`, still URL-encoded, once checked. */
  providerPath?: string;
  /** The query string with its `?`, or "". */
  search: string;
}

/**
 * The router, in front of the Hono app (on the router front's connections, front/, or on node:http's):
 * `GET|POST /router/{provider}/{path}` and the OpenAI-compatible `/v1/...` (openai-api.ts). It does itself what
 * the app's middleware does for other routes (request id, request log, dot-segment guard, CORS headers for
 * callers that send `Origin`, security headers, JSON errors), without building web Request/Response objects or
 * running the middleware chain per call.
 * Returns false for anything it does not handle (other paths and methods, CORS preflights, unusual targets):
 * those go to the Hono app.
 */
export function createNodeRouter(deps: NodeRouterDeps) {
  const api = createOpenAiApi({ ...deps, stats: deps.stats ?? createProviderStats() });
  const servedModels = createServedModels(deps.store);
  const servedVersions = createServedVersions(deps.store);
  const inferenceRoutes = deps.inferenceRoutes ?? InferenceRoutes.fromClient();
  /** The request id, CORS headers for a call that sends `Origin`, security headers; `Vary` on GET answers. */
  const baseHeaders = (incoming: CallerRequest, requestId: string): string[] => {
    const headers = ["x-request-id", requestId];
    headers.push(...(incoming.headers.origin === undefined ? ANSWER_HEADERS : CORS_ANSWER_HEADERS));
    if (incoming.method === "GET") headers.push(...VARY_ORIGIN);
    return headers;
  };
  /** Per-provider targets already checked (the same few paths come again and again): their parts. */
  const checkedTargets = new Map<string, ProviderTarget>();
  function logRequest(incoming: CallerRequest, requestId: string, status: number, started: number) {
    const target = incoming.url ?? "";
    const queryAt = target.indexOf("?");
    deps.logger.log(status >= 500 ? "error" : "info", "request", {
      requestId,
      method: incoming.method,
      path: queryAt === -1 ? target : target.slice(0, queryAt),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  }

  function sendError(
    incoming: CallerRequest,
    outgoing: CallerResponse,
    requestId: string,
    error: unknown,
    path: string,
  ): void {
    if (!HubError.isInstance(error)) {
      deps.logger.log("error", "unhandled error", { requestId, path, error });
    }
    const hubError = HubError.isInstance(error)
      ? error
      : new HubError(500, "internal_error", "The hub failed to handle this request.");
    const body = JSON.stringify(errorBody(hubError, requestId));
    if (outgoing.destroyed) return;
    if (outgoing.headersSent) {
      outgoing.destroy();
      return;
    }
    const headers = Object.entries({
      "x-request-id": requestId,
      ...(incoming.headers.origin === undefined ? {} : ROUTER_CORS_HEADERS),
      "x-error-code": hubError.code,
      ...(hubError.messageHeader ? { "x-error-message": hubError.message } : {}),
      "cache-control": "no-store",
      "content-type": "application/json",
      ...ROUTER_SECURITY_HEADERS,
      "content-length": String(Buffer.byteLength(body)),
      // A body refused midway is not read to its end: the connection cannot be reused.
      ...(hubError instanceof PayloadTooLargeError ? { connection: "close" } : {}),
    }).flat();
    outgoing.writeHead(hubError.status, headers);
    outgoing.end(body);
  }

  /**
   * The models a per-provider call names (in its path and body, by hub id or by the provider's id for one),
   * each as the caller may use it: a private one the caller may not see answers as a missing one, a gated one
   * needs the caller's grant (RouterCaller.mayUse). Nothing is forwarded or recorded when one is refused.
   */
  function refuseUnusableModels(
    caller: RouterCaller,
    provider: string,
    named: readonly string[],
  ): Promise<void> | undefined {
    const checks: Promise<void>[] = [];
    for (const model of named) {
      const served = servedModels(provider, model);
      // Cached, and every model public and ungated (the usual case): decided without a promise.
      if (!(served instanceof Promise) && !served.some(isRestricted)) continue;
      checks.push(refuseAmong(caller, served, model));
    }
    return checks.length === 0 ? undefined : Promise.all(checks).then(() => undefined);
  }

  async function refuseAmong(
    caller: RouterCaller,
    served: ModelRoute["model"][] | Promise<ModelRoute["model"][]>,
    model: string,
  ): Promise<void> {
    for (const found of await served) {
      if (isRestricted(found)) await caller.mayUse(found, model);
    }
  }

  /** The provider, its path and query of a `/router/{provider}/...` target, checked (or a hub error). */
  function providerTarget(target: string): ProviderTarget {
    const known = checkedTargets.get(target);
    if (known) return known;
    if (!PLAIN_TARGET.test(target)) {
      throw new InvalidInputError("The request path contains characters the router does not accept.");
    }
    const queryAt = target.indexOf("?");
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    if (DOT_SEGMENT.test(pathname)) {
      throw new InvalidInputError('Request paths may not contain "." or ".." segments.');
    }
    const providerEnd = pathname.indexOf("/", PREFIX.length);
    const provider = pathname.slice(PREFIX.length, providerEnd === -1 ? undefined : providerEnd);
    if (!deps.upstreams.isKnown(provider)) {
      throw new NotFoundError(`Unknown inference provider "${provider.slice(0, 60)}".`);
    }
    const checked: ProviderTarget = {
      provider,
      pathname,
      search: queryAt === -1 ? "" : target.slice(queryAt),
    };
    if (checkedTargets.size >= MAX_CHECKED_TARGETS) checkedTargets.clear();
    checkedTargets.set(target, checked);
    return checked;
  }

  async function handle(
    incoming: CallerRequest,
    outgoing: CallerResponse,
    pathname: string,
    requestId: string,
  ): Promise<void> {
    const checked = providerTarget(incoming.url ?? "");
    const { provider, search } = checked;
    const billTo = incoming.headers["x-hf-bill-to"];
    const caller = await deps.verifyCaller(
      incoming.headers.authorization,
      typeof billTo === "string" ? billTo : undefined,
    );
    // Checked after the credential, as before: a caller without one learns nothing about paths.
    checked.providerPath ??= providerPathFrom(checked.pathname, provider);
    const providerPath = checked.providerPath;
    // Only the provider's inference calls go on with the operator's key (inference-routes.ts).
    const method = incoming.method ?? "GET";
    const call = inferenceRoutes.check(provider, method, providerPath, search);
    const upstream = deps.upstreams.get(provider);
    if (!upstream) {
      throw new UnavailableError(
        `Provider ${provider} is not configured on this hub (set ${deps.upstreams.keyVariable(provider)}).`,
      );
    }
    const body = method === "POST" ? await readCallerBody(incoming, deps.maxBodyBytes) : undefined;
    // The body parsed whole before any decision on the models it names (call-model.ts).
    const models = modelsOfCall(body, call);
    const refusing = refuseUnusableModels(caller, provider, models.named);
    if (refusing) await refusing;
    for (const version of models.versions) {
      await refuseAmong(caller, servedVersions(provider, version), version);
    }
    const model = models.recorded;
    pipeToProvider({
      upstream,
      method,
      pathAndQuery: providerPath + search,
      publicUrl: deps.publicUrl(),
      headers: incoming.headers,
      forwardSimHeaders: deps.forwardSimHeaders === true,
      body,
      requestId,
      timeouts: deps.timeouts,
      outgoing,
      answerHeaders: baseHeaders(incoming, requestId),
      // Methods, not arrow properties: see answerApi.
      sendError(error) {
        sendError(incoming, outgoing, requestId, error, pathname);
      },
      onDone(result) {
        recordRouterCall(
          deps,
          {
            requestId,
            tokenId: caller.tokenId,
            userId: caller.userId,
            billToId: caller.billToId,
            provider,
            model,
            target: upstream.target,
            requestBytes: body?.byteLength ?? 0,
          },
          result,
        );
      },
    });
  }

  /** Handles router calls (`/router/...`, `/v1/...`) and returns true, or false to leave the request to Hono. */
  return function routeFast(incoming: CallerRequest, outgoing: CallerResponse): boolean {
    const target = incoming.url ?? "";
    if (!isRouterRequest(incoming.method ?? "", target)) return false;
    const isApi = target.startsWith(API_PREFIX) || target.startsWith(ROUTER_API_PREFIX);
    const queryAt = target.indexOf("?");
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    const started = performance.now();
    const callerId = incoming.headers["x-request-id"];
    const requestId =
      typeof callerId === "string" && CALLER_REQUEST_ID.test(callerId) ? callerId : randomUUID();
    outgoing.on("close", () => logRequest(incoming, requestId, outgoing.statusCode, started));
    (isApi
      ? answerApi(incoming, outgoing, pathname, requestId)
      : handle(incoming, outgoing, pathname, requestId)
    ).catch((error: unknown) => sendError(incoming, outgoing, requestId, error, pathname));
    return true;
  };

  /**
   * An OpenAI-compatible API call, after routeFast took it. A function of the router rather than closures made
   * per call: the source runs under tsx (tests, the benchmark), whose esbuild `keepNames` redefines the `name`
   * of every named arrow function as it is created (about 1 µs each); method shorthand and inline callbacks are
   * left alone. Not async: the API's own promise is passed on (each async layer costs a promise and a tick).
   */
  function answerApi(
    incoming: CallerRequest,
    outgoing: CallerResponse,
    pathname: string,
    requestId: string,
  ): Promise<void> {
    if (!PLAIN_TARGET.test(incoming.url ?? "")) {
      return Promise.reject(
        new InvalidInputError("The request path contains characters the router does not accept."),
      );
    }
    const path = pathname.startsWith(PREFIX) ? pathname.slice(PREFIX.length - 1) : pathname;
    return api.handle({
      incoming,
      outgoing,
      path,
      requestId,
      baseHeaders: baseHeaders(incoming, requestId),
      sendError(error) {
        sendError(incoming, outgoing, requestId, error, pathname);
      },
    });
  }
}
