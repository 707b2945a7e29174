import { type Context, Hono } from "hono";
import type { Dispatcher } from "undici";
import { InvalidInputError, NotFoundError, UnavailableError } from "../errors.js";
import { readBodyBytes } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import type { HubMetrics } from "../http/metrics.js";
import type { Logger } from "../logger.js";
import { modelsOfCall } from "./call-model.js";
import { callerSignal } from "./caller-signal.js";
import { forwardableCallerHeaders } from "./exchange-heads.js";
import type { ForwardTimeouts } from "./forward.js";
import { InferenceRoutes } from "./inference-routes.js";
import {
  type CatalogueReads,
  createServedModels,
  createServedVersions,
  type ModelRoute,
} from "./model-routing.js";
import { answerOf, COMPLETION_PATHS, createOpenAiApi } from "./openai-api.js";
import type { OwnProvidersRegistry } from "./own-providers-registry.js";
import { callProvider, providerRewrites, RetrySafeFailure } from "./provider-call.js";
import { providerPathFrom } from "./provider-path.js";
import { createProviderStats, type ProviderStats } from "./provider-stats.js";
import { recordRouterCall, type UsageRecorder } from "./record-call.js";
import { requestTarget } from "./request-target.js";
import type { Upstreams } from "./upstreams.js";
import { browserCredentials, type RouterCaller, type VerifyCaller } from "./verify-caller.js";

export interface RouterDeps {
  catalogue: CatalogueReads;
  /** Where each call's usage record goes (the router's own table). */
  usage: UsageRecorder;
  upstreams: Upstreams;
  logger: Logger;
  timeouts: ForwardTimeouts;
  maxBodyBytes: number;
  /** The hub's public URL: provider URLs in answers are moved onto it. */
  publicUrl: string;
  /** Who may call the router (see verify-caller.ts). */
  verifyCaller: VerifyCaller;
  /** The connections to providers: one undici Agent per hub (provider-agent.ts). */
  dispatcher: Dispatcher;
  /**
   * Pass the simulator's `x-sim-*` fault-injection headers from callers to provider-sim (tests and the
   * benchmark only). Off by default: a caller must not be able to make the hub's upstream misbehave.
   */
  forwardSimHeaders?: boolean;
  /** Providers' measured speed (for `:fastest`); one per router by default. */
  stats?: ProviderStats;
  /** Counts each finished call (per provider and status) for `/metrics`. */
  metrics?: HubMetrics;
  /** The calls `/router/{provider}/...` forwards: by default each provider's inference calls, as the client
   * makes them. */
  inferenceRoutes?: InferenceRoutes;
  /** The administrator's own OpenAI-compatible servers, providers of `/v1` like hosted ones. */
  ownProviders?: OwnProvidersRegistry;
}

/** The paths the router answers under (its CORS and credentials are its own: see app.ts). */
export function isRouterPath(path: string): boolean {
  return path.startsWith("/v1/") || path.startsWith("/router/") || path === "/router";
}

/**
 * Request targets made only of characters that URL parsing leaves as they are. Anything else (quotes, spaces,
 * backslashes, non-ASCII...) is refused rather than guessed at.
 */
const PLAIN_TARGET = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/;
const PREFIX = "/router/";

/** A model only some callers may run (private: its owner's members; gated: those granted access). */
function isRestricted(model: ModelRoute["model"]): boolean {
  return model.private || Boolean(model.gated);
}

/**
 * The inference router as Hono routes: the OpenAI-compatible API (`/v1/...`, also under `/router/v1/...`,
 * openai-api.ts) and `GET|POST /router/{provider}/{path}`, which forwards a provider's inference calls as the
 * inference client makes them (inference-routes.ts) with the operator's key. The app's middleware gives them
 * the request id, the request log, the dot-segment guard, CORS and security headers, and JSON errors.
 */
export function routerRoutes(deps: RouterDeps): Hono<HubEnv> {
  const app = new Hono<HubEnv>();
  const rewritesOf = providerRewrites(deps.publicUrl);
  const api = createOpenAiApi({ ...deps, stats: deps.stats ?? createProviderStats(), rewritesOf });
  const servedModels = createServedModels(deps.catalogue);
  const servedVersions = createServedVersions(deps.catalogue);
  const inferenceRoutes = deps.inferenceRoutes ?? InferenceRoutes.fromClient();

  for (const prefix of ["", "/router"]) {
    for (const path of COMPLETION_PATHS) app.post(`${prefix}${path}`, (c) => api.complete(c, path));
    app.post(`${prefix}/v1/responses`, (c) => api.responses(c));
    app.get(`${prefix}/v1/models`, (c) => api.models(c));
    app.get(`${prefix}/v1/models/:id{.+}`, (c) => api.model(c));
  }
  app.on(["GET", "POST"], "/router/:provider/*", (c) => forwardToProvider(c));

  /**
   * A private model the caller may not see answers as a missing one, a gated one needs the caller's grant
   * (RouterCaller.mayUse).
   */
  async function refuseAmong(caller: RouterCaller, served: ModelRoute["model"][], model: string) {
    for (const found of served) {
      if (isRestricted(found)) await caller.mayUse(found, model);
    }
  }

  async function forwardToProvider(c: Context<HubEnv>): Promise<Response> {
    const startedMs = performance.now();
    const target = requestTarget(c);
    if (!PLAIN_TARGET.test(target)) {
      throw new InvalidInputError("The request path contains characters the router does not accept.");
    }
    const queryAt = target.indexOf("?");
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    const search = queryAt === -1 ? "" : target.slice(queryAt);
    const providerEnd = pathname.indexOf("/", PREFIX.length);
    const provider = pathname.slice(PREFIX.length, providerEnd === -1 ? undefined : providerEnd);
    if (!deps.upstreams.isKnown(provider)) {
      throw new NotFoundError(`Unknown inference provider "${provider.slice(0, 60)}".`);
    }
    const caller = await deps.verifyCaller(
      c.req.header("authorization"),
      c.req.header("x-hf-bill-to"),
      browserCredentials(c),
    );
    // Checked after the credential: a caller without one learns nothing about paths.
    const providerPath = providerPathFrom(pathname, provider);
    // Only the provider's inference calls go on with the operator's key (inference-routes.ts).
    const method = c.req.method;
    const call = inferenceRoutes.check(provider, method, providerPath, search);
    const upstream = deps.upstreams.get(provider);
    if (!upstream) {
      throw new UnavailableError(
        `Provider ${provider} is not configured on this hub (set ${deps.upstreams.keyVariable(provider)}).`,
      );
    }
    const body = method === "POST" ? await readBodyBytes(c, deps.maxBodyBytes) : undefined;
    // The body parsed whole before any decision on the models it names (call-model.ts); nothing is forwarded
    // or recorded when one is refused.
    const models = modelsOfCall(body, call);
    for (const model of models.named) await refuseAmong(caller, await servedModels(provider, model), model);
    for (const version of models.versions) {
      await refuseAmong(caller, await servedVersions(provider, version), version);
    }
    const requestId = c.get("requestId");
    const answer = await callProvider({
      dispatcher: deps.dispatcher,
      upstream,
      rewrites: rewritesOf(upstream),
      method,
      pathAndQuery: providerPath + search,
      callerHeaders: forwardableCallerHeaders(c.req, deps.forwardSimHeaders === true),
      forwardSimHeaders: deps.forwardSimHeaders === true,
      body,
      requestId,
      timeouts: deps.timeouts,
      // A GET answer may be stored by a shared cache: it varies with `Origin` (CORS headers or none).
      extraHeaders: method === "GET" ? { vary: "Origin" } : undefined,
      // A job's status URL a provider redirects to is polled through the router, as those in its bodies.
      redirectsOnto: `${deps.publicUrl}/router/${provider}`,
      signal: callerSignal(c),
      onDone: (result) =>
        recordRouterCall(
          deps,
          {
            requestId,
            method,
            path: c.req.path,
            startedMs,
            tokenId: caller.tokenId,
            userId: caller.userId,
            billToId: caller.billToId,
            provider,
            model: models.recorded,
            target: upstream.target,
            requestBytes: body?.byteLength ?? 0,
          },
          result,
        ),
    });
    // Without failover every failure is thrown: there is an answer.
    if (answer instanceof RetrySafeFailure) throw new Error("unreachable: a call without failover answers");
    // Its call's line (record-call.ts) is the request's log line.
    c.set("requestLoggedByRoute", true);
    return answerOf(answer);
  }

  return app;
}
