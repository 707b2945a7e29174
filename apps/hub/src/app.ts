import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import { type Dispatcher, getGlobalDispatcher } from "undici";
import { type AuditedAccounts, accountsService } from "./accounts/accounts-service.js";
import { avatarsRoutes } from "./accounts/avatars-routes.js";
import { orgInvitesService } from "./accounts/invites.js";
import { type OidcSettings, oidcService } from "./accounts/oidc.js";
import { orgNamesOf } from "./accounts/org-names.js";
import { organizationsRoutes } from "./accounts/organizations-routes.js";
import { sessionRoutes } from "./accounts/sessions-routes.js";
import { settingsAccountRoutes } from "./accounts/settings-routes.js";
import { signInService } from "./accounts/sign-in.js";
import { settingsTokensRoutes } from "./accounts/tokens-routes.js";
import { usersRoutes } from "./accounts/users-routes.js";
import { whoamiRoutes } from "./accounts/whoami-routes.js";
import { adminRoutes } from "./admin/admin-routes.js";
import { siteRoutes } from "./admin/site-routes.js";
import { type SignupPolicy, siteSettingsService } from "./admin/site-settings.js";
import { auditContextMiddleware } from "./audit/audit-context.js";
import type { AuditEntryInput, AuditRecorder } from "./audit/audit-log.js";
import { auditRoutes } from "./audit/audit-routes.js";
import {
  type AuditService,
  auditedTransactions,
  createAuditService,
  recordDone,
} from "./audit/audit-service.js";
import { type ActorResolver, createActorResolver } from "./auth/actor-resolver.js";
import { type Authorizer, createAuthorizer, visibility } from "./auth/authorize.js";
import { actorMiddleware } from "./auth/middleware.js";
import { bucketsRoutes } from "./buckets/buckets-routes.js";
import { createBucketsService } from "./buckets/buckets-service.js";
import { catalogueService } from "./catalogue/catalogue-service.js";
import { createDownloadCounter } from "./catalogue/download-counter.js";
import { engagementService } from "./catalogue/engagement-service.js";
import { librariesRoutes } from "./catalogue/libraries-routes.js";
import { librarySnippetsRoutes } from "./catalogue/library-snippets-routes.js";
import { trendingRoutes, userLikesRoutes } from "./catalogue/likes-routes.js";
import { mappingsForCaller, modelResource } from "./catalogue/model-lookup.js";
import { modelsRoutes } from "./catalogue/models-routes.js";
import { modelOfRoute } from "./catalogue/route-model.js";
import { snippetsRoutes } from "./catalogue/snippets-routes.js";
import { tasksRoutes } from "./catalogue/tasks-routes.js";
import { widgetRoutes } from "./catalogue/widget-routes.js";
import { collectionsRoutes } from "./collections/collections-routes.js";
import { createCollectionsService } from "./collections/collections-service.js";
import { createDiscussionsService } from "./discussions/discussions-service.js";
import { HubError, NotFoundError, renderError, UnavailableError } from "./errors.js";
import { createBareRepositories } from "./git/bare-repository.js";
import { acceptsBasicCredentials, gitRoutes } from "./git/git-routes.js";
import { createLfsDownloads } from "./git/lfs-downloads.js";
import { anyOriginCors } from "./http/api-cors.js";
import { webPagePolicy } from "./http/content-security-policy.js";
import { dotSegmentGuard } from "./http/dot-segment-guard.js";
import { firstViewOf } from "./http/first-view.js";
import { healthRoutes } from "./http/health-routes.js";
import type { HubEnv } from "./http/hub-env.js";
import { createMetrics, type HubMetrics } from "./http/metrics.js";
import { DEFAULT_PUBLIC_URL, normalizePublicUrl, publicUrl } from "./http/public-url.js";
import { readinessService } from "./http/readiness.js";
import { requestEnvelope } from "./http/request-envelope.js";
import { createWebHandler } from "./http/static-web.js";
import { isAdminPage, isAppPage } from "./http/web-pages.js";
import { CAS_PATH, xetCasRoutes } from "./lfs-xet/cas-routes.js";
import { createCasService } from "./lfs-xet/cas-service.js";
import { createLfsService } from "./lfs-xet/lfs-service.js";
import { XetSigner } from "./lfs-xet/xet-tokens.js";
import { adminStorageRoutes, quotaRoutes } from "./limits/quota-routes.js";
import { rateLimitMiddleware } from "./limits/rate-limit-middleware.js";
import type { RateLimitPolicy } from "./limits/rate-limit-policy.js";
import { createRateLimiter, type RateLimiter } from "./limits/rate-limiter.js";
import { createStorageQuotas, type StorageQuotaPolicy } from "./limits/storage-quotas.js";
import { type Logger, silentLogger } from "./logger.js";
import { mirrorAdminRoutes } from "./mirror/mirror-admin-routes.js";
import { assembleMirror, offlineMirrorAdmin } from "./mirror/mirror-assembly.js";
import type { MirrorSettings } from "./mirror/mirror-config.js";
import type { UpstreamClient } from "./mirror/upstream-client.js";
import { createAccessRequestsService } from "./repos/access-requests-service.js";
import { repoAdminRoutes, validateYamlRoute } from "./repos/admin-routes.js";
import { createContentClaims } from "./repos/content-claims.js";
import { repoListingRoutes } from "./repos/listing-routes.js";
import type { RepoMirror } from "./repos/mirror-port.js";
import { createNamespaceRepositories } from "./repos/namespace-repositories.js";
import { namespaceRepositoriesRoutes } from "./repos/namespace-repositories-routes.js";
import type { RepoReadDeps } from "./repos/read-routes.js";
import { refFiles } from "./repos/ref-files.js";
import { accountsRepoAccess, type RepoAccess, repoResource } from "./repos/repo-access.js";
import type { RepoType } from "./repos/repo-records.js";
import { FILE_IDS, repositoryRoutes } from "./repos/repo-routes.js";
import { createRepoService } from "./repos/repo-service.js";
import { createReposListingService } from "./repos/repos-listing-service.js";
import { DEFAULT_TIMEOUTS, type ForwardTimeouts } from "./router/forward.js";
import { DEFAULT_LOCAL_MAX_MODEL_BYTES } from "./router/local-provider.js";
import { type LocalEngineState, localProviderRoutes } from "./router/local-provider-routes.js";
import { localProviderService } from "./router/local-provider-service.js";
import { modelOwnProviders } from "./router/model-own-providers.js";
import { modelOwnProvidersRoutes } from "./router/model-own-providers-routes.js";
import { orgOwnProvidersRoutes } from "./router/org-own-providers-routes.js";
import { orgOwnProvidersService } from "./router/org-own-providers-service.js";
import { checkOrgProviderTarget, orgProviderAgent } from "./router/org-provider-target.js";
import { noSecretBox, type SecretBox } from "./router/own-provider-secrets.js";
import { createOwnProvidersRegistry, type OwnProvidersRegistry } from "./router/own-providers-registry.js";
import { ownProvidersRoutes } from "./router/own-providers-routes.js";
import { ownProvidersService } from "./router/own-providers-service.js";
import { settingsInferenceProvidersRoutes } from "./router/provider-settings-routes.js";
import { providerSettingsService } from "./router/provider-settings-service.js";
import { isRouterPath, routerRoutes } from "./router/router-routes.js";
import { sessionUsageTokens } from "./router/session-usage-token.js";
import { createUpstreams, type Upstreams } from "./router/upstreams.js";
import { usageService } from "./router/usage-service.js";
import { userTokenVerifier } from "./router/verify-caller.js";
import { scanAdminRoutes } from "./scanning/scan-admin-routes.js";
import { contentReader } from "./scanning/scan-content.js";
import type { FileScanReport, ScanSource } from "./scanning/scan-report.js";
import { createScanService, type ScanPolicy, type ScanService } from "./scanning/scan-service.js";
import { searchRoutes } from "./search/search-routes.js";
import { createSearchService } from "./search/search-service.js";
import { createSpaceAppLinks } from "./spaces/space-app-links.js";
import { createSpaceApps } from "./spaces/space-apps.js";
import { spacesOriginApp } from "./spaces/spaces-origin.js";
import type { BlobStore } from "./storage/blob-store.js";
import type { BlobDownloadMode, DownloadOffload } from "./storage/blob-store-config.js";
import type { Store } from "./store/store.js";
import { assembleViewer } from "./viewer/viewer-assembly.js";
import { VIEWER_PATH } from "./viewer/viewer-routes.js";
import type { ViewerService } from "./viewer/viewer-service.js";
import type { HubEventRecorder } from "./webhooks/hub-events.js";
import { webhooksRoutes } from "./webhooks/webhooks-routes.js";
import {
  createWebhooksService,
  type DeliverySettings,
  type WebhooksService,
} from "./webhooks/webhooks-service.js";

export interface AppLimits {
  /** Largest JSON body the API accepts (admin writes). */
  apiBodyBytes: number;
}

export const DEFAULT_LIMITS: AppLimits = { apiBodyBytes: 1024 * 1024 };

/** Largest body the router forwards (inputs may carry base64 images or audio). */
export const ROUTER_BODY_BYTES = 32 * 1024 * 1024;

export interface AppDeps {
  store: Store;
  logger?: Logger;
  /** Bearer token of the admin API; undefined disables it. */
  adminToken?: string;
  /** Provider names mappings may use; defaults to the inference client's providers. */
  knownProviders?: readonly string[];
  /** Directory of the built web app (index.html + assets), served at `/`. */
  webDist?: string;
  /** Origins model cards' images may load from besides the hub: the pages' CSP and `GET /api/site` say so. */
  cardImageOrigins?: readonly string[];
  limits?: Partial<AppLimits>;
  /**
   * The hub's public URL: every URL the hub writes starts with it, never with the request's Host. Default
   * DEFAULT_PUBLIC_URL; start-hub.ts passes PUBLIC_URL or the address it listens on.
   */
  publicUrl?: string;
  /** Where repository files are kept; without it the repository API is off (catalogue-only hub). */
  blobs?: BlobStore;
  /**
   * Where git's bare copies of the repositories are kept (start-hub.ts: `dataDir/git`): git clone, fetch and
   * ls-remote are served from them (docs/decisions/git-http.md). Unset: those routes answer 403.
   */
  gitDir?: string;
  /** Part size of LFS multipart uploads (larger objects use them); default 1 GiB. */
  lfsMultipartChunkBytes?: number;
  /** "redirect": `/resolve` of an LFS file answers 302 to the store's presigned URL (default "proxy"). */
  blobDownload?: BlobDownloadMode;
  /** `/resolve` answers X-Accel-Redirect to nginx's internal location instead of sending stored bytes. */
  downloadOffload?: DownloadOffload;
  /** Who may do what with repositories; defaults to the accounts' authorize(). */
  repoAccess?: RepoAccess;
  /**
   * Turns credentials into actors, for the API and the router alike, so that a revocation through the API
   * clears the one token cache at once. Made from the store when not given.
   */
  actorResolver?: ActorResolver;
  /** Who may create an account through the API (default "closed": admins create users). */
  signupPolicy?: SignupPolicy;
  /** Single sign-on through an OpenID Connect provider (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET). */
  oidc?: OidcSettings;
  authorizer?: Authorizer;
  /**
   * The pull-through mirror of an upstream hub (UPSTREAM_URL, docs/decisions/mirror.md): its settings and the
   * client to upstream (start-hub.ts makes it, and closes it with the hub). Unset: no mirror.
   */
  mirror?: {
    settings: MirrorSettings;
    upstream: UpstreamClient;
    /** Where content is written while it is fetched (mirror-content.ts openPullDir). */
    pullDir: string;
  };
  /**
   * The content scanner (docs/decisions/scanning.md): the dispatcher, its rules stamp, SCAN_POLICY and
   * SCAN_CONCURRENCY. The app builds the scan service and hands it to `expose` (start-hub.ts starts its
   * workers and stops them on close; tests drain it). Unset: files are listed unscanned and always served.
   */
  scanning?: {
    scanFile(source: ScanSource): Promise<FileScanReport>;
    rulesVersion: string;
    policy?: ScanPolicy;
    concurrency?: number;
    /** How often an idle worker looks for what other replicas queued (default 5 s). */
    pollMs?: number;
    expose?(service: ScanService): void;
  };
  /**
   * Webhooks (webhooks/): WEBHOOK_ALLOW_PRIVATE, the delivery settings, and origins that are the hub too
   * besides its public URL (its listening address). The app builds the service and hands it to `expose`
   * (start-hub.ts starts its delivery workers and stops them on close); without `expose` nothing delivers.
   */
  webhooks?: {
    allowPrivate?: boolean;
    delivery?: Partial<DeliverySettings>;
    hubOrigins?: readonly string[];
    expose?(service: WebhooksService): void;
  };
  /**
   * The dataset viewer (viewer/, docs/decisions/dataset-viewer.md): its local directory (Parquet cache and
   * conversions' scratch space). The app builds the conversion service and hands it to `expose` (start-hub.ts
   * starts its workers and stops them on close; tests drain it). Unset: no viewer API.
   */
  viewer?: { dir: string; pollMs?: number; splitLimitBytes?: number; expose?(service: ViewerService): void };
  /**
   * Rate limits (RATE_LIMITS, limits/rate-limit-policy.ts; docs/decisions/rate-limits.md): the policy, and
   * `expose` to receive the limiter (start-hub.ts starts its sharing with other replicas and stops it on
   * close; tests call its sync). Unset: no rate limits.
   */
  rateLimits?: { policy: RateLimitPolicy; expose?(limiter: RateLimiter): void };
  /** STORAGE_QUOTAS (limits/storage-quotas.ts): checked on every upload path; unset: no quotas. */
  storageQuotas?: StorageQuotaPolicy;
  /**
   * The audit log (audit/): AUDIT_RETENTION_DAYS, and `expose` to receive the service (start-hub.ts prunes
   * entries past the retention hourly). Entries are written whatever is given.
   */
  audit?: { retentionDays?: number; expose?(service: AuditService): void };
  /**
   * Static spaces' sites (spaces/, docs/decisions/static-spaces.md): SPACES_URL, where browsers reach the
   * spaces origin, and `expose` to receive that origin's app (start-hub.ts serves it on its own port).
   * Unset: spaces show their files only.
   */
  spaces?: { url: string; expose(app: Hono): void };
  /** True once shutdown began (start-hub.ts): `/readyz` then answers 503. */
  draining?: () => boolean;
  /** Prometheus metrics served at `/metrics`. */
  metrics?: HubMetrics;
  /**
   * Where the inference router sends each provider's calls (start-hub.ts); without it no provider is
   * configured and router calls answer 503 naming the key to set.
   */
  router?: {
    upstreams: Upstreams;
    /** The connections to providers (router/provider-agent.ts); undici's global dispatcher by default. */
    dispatcher?: Dispatcher;
    timeouts?: Partial<ForwardTimeouts>;
    /** Let callers' `x-sim-*` headers reach provider-sim (tests and the benchmark only). */
    forwardSimHeaders?: boolean;
    /**
     * The administrator's own providers (router/own-providers-*.ts): the registry start-hub.ts health-checks,
     * and the box that seals their keys. Without them the app makes a registry of its own (no periodic
     * checks) and refuses to store keys.
     */
    ownProviders?: { registry: OwnProvidersRegistry; secrets: () => SecretBox };
    /** ORG_PROVIDERS_ALLOW_PRIVATE: organizations' providers may be on private addresses (off by default). */
    orgProvidersAllowPrivate?: boolean;
    /** Set when this process runs the built-in llama.cpp provider (LOCAL_PROVIDER=on). */
    localProvider?: { maxModelBytes: number; engineState?: () => LocalEngineState };
  };
}

/** The channel on which a hub announces that cached credentials are stale (see invalidateActors). */
export const ACCOUNTS_CHANGED = "modelhub_accounts_changed";

/** Builds the hub's HTTP application from its routes. Pure wiring: no environment, no listening socket. */
export function createApp(deps: AppDeps): Hono<HubEnv> {
  const logger = deps.logger ?? silentLogger;
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const app = new Hono<HubEnv>();
  const hubPublicUrl = normalizePublicUrl(deps.publicUrl ?? DEFAULT_PUBLIC_URL);
  const accounts = deps.store.accounts;
  const resolver = deps.actorResolver ?? createActorResolver({ accounts, adminToken: deps.adminToken });
  // A revoked token, a disabled user or a changed membership takes effect at once on every replica: the
  // change is announced on the database (PostgreSQL NOTIFY) and each hub drops its cached credentials.
  const invalidateActors = () => {
    resolver.invalidate();
    deps.store.db.notify(ACCOUNTS_CHANGED, "").catch((error: unknown) => {
      logger.log("error", "announcing an accounts change failed", { error });
    });
  };
  deps.store.db
    .listen(ACCOUNTS_CHANGED, () => resolver.invalidate())
    .catch((error: unknown) => {
      logger.log("error", "listening for accounts changes failed", { error });
    });
  const authorizer = deps.authorizer ?? createAuthorizer({ accounts });
  // Who did what, written in the transactions of the actions (audit/audit-log.ts).
  const audit = createAuditService({
    store: deps.store,
    authorizer,
    retentionDays: deps.audit?.retentionDays,
    logger,
  });
  deps.audit?.expose?.(audit);
  const site = siteSettingsService(deps.store, deps.signupPolicy ?? "closed", audit.recorder);
  const auditedAccounts: AuditedAccounts = {
    transaction: (work) =>
      deps.store.transaction((tx) => work(tx.accounts, (entry) => audit.recorder.record(tx, entry))),
  };
  // Changes to who serves inference (own and organization providers, the local provider) and their entries.
  const providerAudit = auditedTransactions(deps.store.db, audit.recorder);
  // The services the routes call: the only code that reaches the store's tables and the blob store.
  const accountsOps = accountsService(accounts, auditedAccounts);
  const usage = usageService(deps.store);
  const providerSettings = providerSettingsService(deps.store);
  const catalogue = catalogueService(deps.store, {
    knownProviders: deps.knownProviders ?? INFERENCE_PROVIDERS,
    providerOrder: providerSettings.order,
    // Site admins' changes to models and their mappings (the admin API's writes).
    audit: audit.recorder,
  });

  const webhooks = createWebhooksService({
    store: deps.store,
    authorizer,
    publicUrl: hubPublicUrl,
    targets: {
      allowPrivate: deps.webhooks?.allowPrivate ?? false,
      hubOrigins: () => [new URL(hubPublicUrl).origin, ...(deps.webhooks?.hubOrigins ?? [])],
    },
    delivery: deps.webhooks?.delivery,
    logger,
  });
  deps.webhooks?.expose?.(webhooks);

  const ownSecrets = deps.router?.ownProviders?.secrets ?? noSecretBox;
  const ownRegistry =
    deps.router?.ownProviders?.registry ??
    createOwnProvidersRegistry({
      db: deps.store.db,
      secrets: ownSecrets,
      dispatcher: deps.router?.dispatcher ?? getGlobalDispatcher(),
      orgNames: orgNamesOf(accounts),
      // Organizations' providers never reach private addresses unless the site allows it.
      orgDispatcher: deps.router?.orgProvidersAllowPrivate ? undefined : orgProviderAgent(),
      logger,
    });
  const ownProviders = ownProvidersService({
    db: deps.store.db,
    secrets: ownSecrets,
    findModel: (id) => catalogue.find(id),
    health: (name) => ownRegistry.health(name),
    onChanged: () => ownRegistry.invalidate(),
    audited: providerAudit,
  });
  const orgProviderTargets = {
    allowPrivate: deps.router?.orgProvidersAllowPrivate ?? false,
    hubOrigins: () => [new URL(hubPublicUrl).origin, ...(deps.webhooks?.hubOrigins ?? [])],
  };
  const orgProviders = orgOwnProvidersService({
    db: deps.store.db,
    secrets: ownSecrets,
    async findOrg(name) {
      const found = await accounts.namespace(name);
      return found?.kind === "org" ? { id: found.id, name: found.name } : undefined;
    },
    // A model the acting admin may not see answers as a missing one.
    async findVisibleModel(id, actor) {
      const model = await catalogue.find(id);
      return model && (await authorizer.can(actor, "read", modelResource(model))) ? model : undefined;
    },
    checkTarget: (url) => checkOrgProviderTarget(url, orgProviderTargets),
    health: (id) => ownRegistry.health(id),
    onChanged: () => ownRegistry.invalidate(),
    audited: providerAudit,
  });

  const metrics = deps.metrics ?? createMetrics();
  // Request id, public URL, security headers, metrics and the request log (http/request-envelope.ts).
  app.use("*", requestEnvelope({ logger, metrics, publicUrl: hubPublicUrl }));
  app.use("*", dotSegmentGuard);
  const apiCors = anyOriginCors({
    origin: "*",
    allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "X-Request-Id", "X-HF-Bill-To"],
    exposeHeaders: [
      "Link",
      "X-Request-Id",
      "X-Error-Code",
      "X-Error-Message",
      "RateLimit",
      "RateLimit-Policy",
      "Retry-After",
    ],
    maxAge: 600,
  });
  app.use("/api/*", apiCors);
  // The router's answers carry CORS headers only for a caller that sends `Origin`: its API clients never do
  // and would parse them on every call. `/api/*` answers keep them unconditionally.
  const routerCors = cors({
    origin: "*",
    allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "X-Request-Id", "X-HF-Bill-To"],
    exposeHeaders: ["Link", "X-Request-Id", "X-Error-Code", "X-Error-Message", "X-Inference-Provider"],
    maxAge: 600,
  });
  for (const path of ["/router/*", "/v1/*"]) {
    app.use(path, (c, next) => (c.req.header("origin") === undefined ? next() : routerCors(c, next)));
  }
  // Router calls go to the router's routes and nowhere else. Mounted here, after the envelope, the dot-segment
  // guard and its CORS, and before the middleware below, which all let router paths through untouched (the
  // router checks its callers itself): a router answer ends the dispatch, so that those handlers are not
  // even entered per call (a few % of the hub's CPU per call at zero latency, bench:router profiles).
  app.route(
    "/",
    routerRoutes({
      catalogue,
      usage: deps.store.usage,
      logger,
      metrics,
      upstreams: deps.router?.upstreams ?? createUpstreams({}),
      dispatcher: deps.router?.dispatcher ?? getGlobalDispatcher(),
      timeouts: { ...DEFAULT_TIMEOUTS, ...deps.router?.timeouts },
      maxBodyBytes: ROUTER_BODY_BYTES,
      publicUrl: hubPublicUrl,
      verifyCaller: userTokenVerifier(
        resolver,
        authorizer,
        (userId) => deps.store.providerPreferences.get(userId),
        sessionUsageTokens(deps.store.accounts.tokens),
      ),
      forwardSimHeaders: deps.router?.forwardSimHeaders,
      ownProviders: ownRegistry,
    }),
  );

  // Every request, not only /api: file downloads (/{id}/resolve/...) and LFS calls are authorized too.
  // The Xet CAS API carries its own bearer tokens (signed Xet tokens, not hub credentials); the router
  // checks its callers' tokens itself (router/verify-caller.ts, through the same resolver).
  const actors = actorMiddleware(resolver, authorizer, acceptsBasicCredentials);
  app.use("*", (c, next) =>
    c.req.path.startsWith(`${CAS_PATH}/`) || isRouterPath(c.req.path) ? next() : actors(c, next),
  );
  // State-changing requests carry who and from where to the audit log's recorder.
  const auditContext = auditContextMiddleware();
  app.use("*", (c, next) =>
    c.req.path.startsWith(`${CAS_PATH}/`) || isRouterPath(c.req.path) ? next() : auditContext(c, next),
  );
  if (deps.rateLimits) {
    const limiter = createRateLimiter({
      table: deps.store.rateLimits,
      windowSeconds: deps.rateLimits.policy.windowSeconds,
      syncMs: deps.rateLimits.policy.syncMs,
      logger,
    });
    deps.rateLimits.expose?.(limiter);
    // After the caller is known (counted per token, session or address); router and CAS calls have no actor here.
    const limit = rateLimitMiddleware(deps.rateLimits.policy, limiter);
    app.use("*", (c, next) =>
      c.req.path.startsWith(`${CAS_PATH}/`) || isRouterPath(c.req.path) ? next() : limit(c, next),
    );
  }

  const repositories = deps.blobs
    ? mountRepositories(
        app,
        { ...deps, blobs: deps.blobs, metrics },
        hubPublicUrl,
        authorizer,
        webhooks.recorder,
        audit.recorder,
        invalidateActors,
      )
    : undefined;

  app.route(
    "/",
    healthRoutes({
      readiness: readinessService({ store: deps.store, blobs: deps.blobs, draining: deps.draining }),
    }),
  );
  // Request counts per route, object store calls and process figures are the operator's: the ADMIN_TOKEN (what a
  // Prometheus scrape sends as its bearer token) or a site administrator.
  app.get("/metrics", async (c) => {
    await authorizer.authorize(c.get("actor"), "manage", { kind: "site" });
    c.header("Content-Type", metrics.registry.contentType);
    return c.body(await metrics.registry.metrics());
  });
  app.route("/api/models", snippetsRoutes({ catalogue }));
  app.route("/api/models", librarySnippetsRoutes({ catalogue }));
  // Search over repositories (search/): `search=` on the listings, the header's quicksearch, the search page.
  const search = createSearchService(deps.store);
  // The own providers of a model the caller may use (the model page's): before the model's own route.
  app.route(
    "/api/models",
    modelOwnProvidersRoutes({
      ownProvidersOf: modelOwnProviders({
        snapshot: () => ownRegistry.snapshot(),
        health: (name) => ownRegistry.health(name),
        authorizer,
      }),
      modelOf: (c) => modelOfRoute(c, catalogue),
    }),
  );
  app.route("/api/models", modelsRoutes({ catalogue, search }));
  app.route("/api/tasks", tasksRoutes({ catalogue }));
  app.route("/api/libraries", librariesRoutes({ catalogue }));
  app.route("/api", whoamiRoutes());
  app.route(
    "/api/collections",
    collectionsRoutes({
      collections: createCollectionsService({
        db: deps.store.db,
        authorizer,
        publicUrl: hubPublicUrl,
        async findRepo(type, id) {
          const repo = await deps.store.repos.get(type, id);
          if (!repo) return undefined;
          const { private: hidden, gated, lastModified } = repo;
          return { type, id: repo.id, private: hidden, gated, lastModified, resource: repoResource(repo) };
        },
        namespaceKind: async (name) => (await accounts.namespace(name))?.kind,
      }),
      maxBodyBytes: limits.apiBodyBytes,
    }),
  );
  app.route(
    "/api",
    namespaceRepositoriesRoutes({ repositories: createNamespaceRepositories(deps.store), authorizer }),
  );
  app.route("/api/settings/webhooks", webhooksRoutes({ webhooks, maxBodyBytes: limits.apiBodyBytes }));
  app.route(
    "/api/settings/tokens",
    settingsTokensRoutes({
      accounts: accountsOps,
      maxBodyBytes: limits.apiBodyBytes,
      onRevoked: invalidateActors,
    }),
  );
  app.route(
    "/api/settings",
    settingsAccountRoutes({
      accounts: accountsOps,
      usage,
      maxBodyBytes: limits.apiBodyBytes,
      onChanged: invalidateActors,
    }),
  );
  // Before the organizations' and the admin API's own routes (their paths are more general).
  app.route("/api/organizations", auditRoutes({ audit, scope: "org" }));
  app.route(
    "/api/organizations",
    orgOwnProvidersRoutes({
      orgProviders,
      authorizer,
      maxBodyBytes: limits.apiBodyBytes,
      async checkHealth(org) {
        const found = await accounts.namespace(org);
        if (found?.kind === "org") await ownRegistry.checkOrg(found.id);
      },
    }),
  );
  app.route("/api/admin", auditRoutes({ audit, scope: "site" }));
  app.route(
    "/api/organizations",
    organizationsRoutes({
      accounts: accountsOps,
      invites: orgInvitesService(accounts, deps.store.orgInvites),
      usage,
      maxBodyBytes: limits.apiBodyBytes,
      publicUrl: () => hubPublicUrl,
      onMembershipChanged: invalidateActors,
    }),
  );
  app.route(
    "/api/settings/inference-providers",
    settingsInferenceProvidersRoutes({ providerSettings, maxBodyBytes: limits.apiBodyBytes }),
  );
  app.route(
    "/api/admin/local-provider",
    localProviderRoutes({
      // Reads only (a model's files at main), as the admin CLI reads them.
      localProvider: localProviderService({
        db: deps.store.db,
        repos: () => {
          if (!deps.blobs) throw new UnavailableError("This hub runs without repositories (no blob store).");
          return createRepoService({ store: deps.store, blobs: deps.blobs });
        },
        maxModelBytes: deps.router?.localProvider?.maxModelBytes ?? DEFAULT_LOCAL_MAX_MODEL_BYTES,
        onChanged: () => ownRegistry.invalidate(),
        audited: providerAudit,
      }),
      authorizer,
      maxBodyBytes: limits.apiBodyBytes,
      running: deps.router?.localProvider !== undefined,
      engineState: deps.router?.localProvider?.engineState,
    }),
  );
  app.route(
    "/api/admin/own-providers",
    ownProvidersRoutes({
      ownProviders,
      authorizer,
      maxBodyBytes: limits.apiBodyBytes,
      checkHealth: () => ownRegistry.checkAll(),
    }),
  );
  app.route(
    "/api/auth",
    sessionRoutes({
      accounts: accountsOps,
      signIn: signInService(accounts, undefined, undefined, auditedAccounts),
      maxBodyBytes: limits.apiBodyBytes,
      site,
      secureCookies: hubPublicUrl.startsWith("https:"),
      ...(deps.oidc
        ? {
            oidc: oidcService({
              settings: deps.oidc,
              accounts,
              identities: deps.store.oidcIdentities,
              callbackUrl: () => `${hubPublicUrl}/api/auth/oidc/callback`,
              signupPolicy: site.signupPolicy,
            }),
            onSsoFailure: (error: unknown) =>
              logger.log("warn", "single sign-on failed", {
                reason: error instanceof Error ? error.message : String(error),
              }),
          }
        : {}),
    }),
  );
  app.route("/api/avatars", avatarsRoutes());
  app.route("/api/users", usersRoutes(accountsOps));
  const reposListing = createReposListingService(deps.store);
  app.route("/api/datasets", repoListingRoutes(reposListing, "dataset", search));
  app.route("/api/spaces", repoListingRoutes(reposListing, "space", search));
  app.route("/api", searchRoutes({ search, catalogue, reposListing }));
  // The widget's routes sit at absolute paths (/widget/top-products.js, /api/widget/top-products).
  app.route(
    "/",
    widgetRoutes({
      listTopModels: (query) => catalogue.top(query),
      hubUrl: hubPublicUrl,
      onError: (error) => logger.log("error", "widget ranking failed", { error }),
    }),
  );
  app.route(
    "/api/admin",
    adminRoutes({
      operations: catalogue,
      accounts: accountsOps,
      usage,
      authorizer,
      // A revoked token, a disabled user or a changed membership must take effect at once.
      onAccountsChanged: invalidateActors,
      maxBodyBytes: limits.apiBodyBytes,
      publicUrl: () => hubPublicUrl,
      site,
    }),
  );
  app.route("/api/site", siteRoutes(site, { cardImageOrigins: deps.cardImageOrigins ?? [] }));

  // Pages may frame the spaces origin (a static space's App tab), nothing else.
  const webPolicy = webPagePolicy(
    deps.cardImageOrigins,
    deps.spaces ? [new URL(deps.spaces.url).origin] : [],
  );
  const web = deps.webDist
    ? createWebHandler(
        deps.webDist,
        webPolicy,
        (path, c) =>
          isAdminPage(path)
            ? // Administration pages exist for site admins only (the one authorization function decides).
              authorizer.authorize((c as Context<HubEnv>).get("actor"), "manage", { kind: "site" }).then(
                () => true,
                () => false,
              )
            : // A private model the caller may not see is "not found", as the API answers it.
              isAppPage(path, {
                repoExists: async (type, id) => {
                  const found =
                    type === "model"
                      ? await catalogue.find(id)
                      : ((await deps.store.repos.get(type, id)) ??
                        (await deps.store.repos.redirected(type, id)));
                  if (!found) return repositories ? mirroredForPage(repositories, c, type, id) : false;
                  if (!found.private) return true;
                  const visible = visibility((c as Context<HubEnv>).get("actor"), type);
                  const lower = found.id.toLowerCase();
                  return (
                    visible.all ||
                    visible.owners.some((owner) => lower.startsWith(`${owner.toLowerCase()}/`)) ||
                    visible.repoIds.some((repoId) => repoId.toLowerCase() === lower)
                  );
                },
                accountExists: async (name) => {
                  const account = await deps.store.accounts.namespace(name);
                  return account !== undefined && !(account.kind === "user" && account.disabled);
                },
              }),
        // Asked only for a page the check above let this caller see: a private model's card reaches only them.
        (path, c) =>
          firstViewOf(path, {
            model: (id) => catalogue.find(id),
            site: async () => ({
              siteName: (await site.get()).siteName,
              origin: new URL(publicUrl(c)).origin,
              cardImageOrigins: deps.cardImageOrigins ?? [],
            }),
          }),
      )
    : undefined;
  app.notFound(async (c) => {
    const isApi = /^\/(api|router|v1|widget)(\/|$)/.test(c.req.path);
    const page = !isApi && web ? await web(c) : undefined;
    return page ?? renderError(c, new NotFoundError(`No route for ${c.req.method} ${c.req.path}.`));
  });

  app.onError((error, c) => {
    if (!HubError.isInstance(error)) {
      logger.log("error", "unhandled error", { requestId: c.get("requestId"), path: c.req.path, error });
    }
    if (HubError.isInstance(error)) {
      c.header("X-Error-Code", error.code);
      // huggingface_hub reads the message from this header on HEAD requests, which have no body.
      c.header("X-Error-Message", error.message.replace(/[^\x20-\x7e]/g, " ").slice(0, 500));
    }
    return renderError(c, error);
  });

  return app;
}

/** The repository API: file downloads, LFS, the /api/{type}s/{id}/... calls and /api/repos/*. */
function mountRepositories(
  app: Hono<HubEnv>,
  deps: AppDeps & { blobs: BlobStore },
  publicUrl: string,
  authorizer: Authorizer,
  events: HubEventRecorder,
  audit: AuditRecorder,
  /** After an access-request decision: cached credentials carry the router's grants (verify-caller.ts). */
  onAccessDecided: () => void,
): { access: RepoAccess; mirror?: RepoMirror } {
  // Which repositories are demo copies of catalogue models: their info says so, and a mirror replaces them.
  const demoCopies = catalogueService(deps.store);
  const { signer: xetSigner, ready: xetSignerReady } = XetSigner.fromMeta(deps.store.meta);
  // The signing key comes from the database: requests wait for it (once, at start) before any route uses it.
  let xetSignerLoaded = false;
  const xetSignerLoading = xetSignerReady.then(() => {
    xetSignerLoaded = true;
  });
  xetSignerLoading.catch(() => {});
  // Not async: once loaded, one promise fewer on every request.
  app.use((_c, next) => (xetSignerLoaded ? next() : xetSignerLoading.then(next)));
  const cas = createCasService({
    xet: deps.store.xet,
    gc: deps.store.xetGc,
    blobs: deps.blobs,
    signer: xetSigner,
    casUrl: `${publicUrl}${CAS_PATH}`,
  });
  deps.metrics?.watchXetFileSha256(cas.fileSha256Sources);
  const scanner = deps.scanning ? assembleScanning(deps, deps.scanning, deps.blobs, cas) : undefined;
  // Usage is shown whether or not STORAGE_QUOTAS sets limits; uploads are checked only when it does.
  const quotaService = createStorageQuotas(deps.store, deps.storageQuotas);
  const storageQuotas = deps.storageQuotas ? quotaService : undefined;
  app.route("/api/quotas", quotaRoutes({ quotas: quotaService }));
  app.route("/api/admin/storage", adminStorageRoutes({ quotas: quotaService, authorizer }));
  // Set below once the repositories exist: the commit hook queues conversions through it.
  let viewer: ViewerService | undefined;
  const repos = createRepoService({
    store: deps.store,
    blobs: deps.blobs,
    events,
    audit,
    logger: deps.logger,
    // Queued after the commit answered: the scan never runs in the upload's request.
    onFilesRecorded: (repo, files) => {
      scanner?.enqueue(repo, files).catch((error: unknown) => {
        deps.logger?.log("error", "queueing files to scan failed", { repo: repo.id, error });
      });
    },
    // A dataset's new main: its Parquet conversion is queued before the answer (never run in its request).
    onMainMoved: async (repo) => {
      await viewer?.mainMoved(repo).catch((error: unknown) => {
        deps.logger?.log("error", "queueing a dataset conversion failed", {
          repo: repo.id,
          error: String(error),
        });
      });
    },
  });
  // Operations that are no one transaction (queueing, evictions) are audited once done.
  const recordOperation = (entry: AuditEntryInput) => recordDone(deps.store, audit, entry);
  if (scanner) {
    app.route(
      "/api/admin/scanning",
      scanAdminRoutes({ scanning: scanner, authorizer, recordDone: recordOperation }),
    );
  }
  const access = deps.repoAccess ?? accountsRepoAccess(authorizer);
  if (deps.viewer) {
    const assembled = assembleViewer({
      table: deps.store.viewer,
      repos,
      access,
      blobs: deps.blobs,
      cas,
      publicUrl,
      dir: deps.viewer.dir,
      pollMs: deps.viewer.pollMs,
      splitLimitBytes: deps.viewer.splitLimitBytes,
      logger: deps.logger,
    });
    viewer = assembled.service;
    app.route(VIEWER_PATH, assembled.routes);
    deps.viewer.expose?.(assembled.service);
  }
  // The pull-through mirror (docs/decisions/mirror.md): service, content on first read, cache, counters.
  const mirror = deps.mirror
    ? assembleMirror({
        store: deps.store,
        blobs: deps.blobs,
        repos,
        cas,
        upstream: deps.mirror.upstream,
        settings: deps.mirror.settings,
        pullDir: deps.mirror.pullDir,
        logger: deps.logger,
        metrics: deps.metrics,
        // A demo copy of a catalogue model gives way to the real model upstream has (issue 38).
        isUntouchedDemoCopy: async (repoKey) => (await demoCopies.demoCopy(repoKey)) !== undefined,
        onContentStored: scanner
          ? (sha256) => {
              scanner.contentArrived(sha256).catch((error: unknown) => {
                deps.logger?.log("error", "starting the scan of fetched content failed", { sha256, error });
              });
            }
          : undefined,
      })
    : undefined;
  // Without an upstream the hub may still hold mirrors (mirror:import on an air-gapped hub): shown alike.
  app.route(
    "/api/admin/mirror",
    mirrorAdminRoutes({
      admin: mirror?.admin ?? offlineMirrorAdmin({ store: deps.store, blobs: deps.blobs }),
      authorizer,
      maxBodyBytes: 64 * 1024,
      recordDone: recordOperation,
    }),
  );
  const repoDeps: RepoReadDeps = {
    repos,
    access,
    mirror: mirror?.port,
    publicUrl,
    xetSigner,
    cas,
    redirectDownloads: deps.blobDownload === "redirect",
    offloadPrefix: deps.downloadOffload?.prefix,
    scanning: scanner,
    discussions: createDiscussionsService({ store: deps.store, repos, events }),
    claims: createContentClaims({ store: deps.store, blobs: deps.blobs, access }),
    accessRequests: createAccessRequestsService(deps.store, audit, onAccessDecided),
    quotas: storageQuotas,
    catalogue: {
      // The same object while its row is unchanged: repository info answers are kept keyed by it.
      model: (id) => deps.store.models.shared(id),
      countChildren: (id) => deps.store.models.countChildren(id),
      mappingsFor: (c, id) => mappingsForCaller(c, deps.store, id),
      demoCopy: (key) => demoCopies.demoCopy(key),
    },
  };
  // Likes by this hub's users and its own download counts, never huggingface.co's (issue 38).
  const engagement = engagementService(deps.store, (actor, repo) => access.can(actor, "read", repo));
  repoDeps.engagement = engagement;
  repoDeps.downloads = createDownloadCounter({
    libraryOf: async (id) => (await deps.store.models.get(id))?.library_name,
    addDownloads: (increments) => deps.store.engagement.addDownloads(increments),
    onError: (error) => deps.logger?.log("error", "counting downloads failed", { error }),
  });
  app.route("/api/users", userLikesRoutes(engagement));
  app.route("/api", trendingRoutes(engagement));
  // Storage buckets (buckets/): flat Xet storage beside the repositories, as @huggingface/hub calls it.
  const buckets = createBucketsService({
    store: deps.store,
    authorizer,
    xetSigner,
    cas,
    casUrl: `${publicUrl}${CAS_PATH}`,
    namespaceKind: async (name) => (await deps.store.accounts.namespace(name))?.kind,
    // A copy from a repository: the caller reads its files, and its history holds the Xet file's content.
    async repositoryHolds(actor, type, id, xetHash) {
      const found = await repos.find(type, id);
      if (!found || !(await access.can(actor, "read-files", found.repo))) return false;
      const file = await cas.file(xetHash);
      return file?.sha256 !== undefined && (await repos.holdsContent(found.repo, file.sha256));
    },
  });
  app.route("/", bucketsRoutes({ buckets, cas, publicUrl, maxBodyBytes: 1024 * 1024 }));
  app.route(
    CAS_PATH,
    xetCasRoutes({
      cas,
      signer: xetSigner,
      holdsContent: (repoKey, sha256) => deps.store.repos.repoHoldsContent(repoKey, sha256),
      assertServable: scanner?.assertContentServable,
      quotas: storageQuotas,
      buckets: buckets.cas,
    }),
  );
  const lfsDownloads = createLfsDownloads({ meta: deps.store.meta, repos, cas, scanning: scanner });
  if (deps.spaces) {
    const links = createSpaceAppLinks({ meta: deps.store.meta });
    repoDeps.spaceApps = createSpaceApps({ links, spacesUrl: deps.spaces.url });
    const hubOrigins = [...new Set([new URL(publicUrl).origin, ...(deps.webhooks?.hubOrigins ?? [])])];
    deps.spaces.expose(spacesOriginApp({ links, repos, cas, scanning: scanner, hubOrigins }));
  }
  app.route(
    "/",
    repositoryRoutes({
      ...repoDeps,
      lfsDownloads,
      lfs: createLfsService({ store: deps.store, repos, access }),
      multipartChunk: deps.lfsMultipartChunkBytes,
      isCatalogueModel: async (id) => (await deps.store.models.get(id)) !== undefined,
    }),
  );
  app.route(
    "/",
    gitRoutes(
      {
        ...repoDeps,
        lfsDownloads,
        bare: deps.gitDir
          ? createBareRepositories({ gitDir: deps.gitDir, repos, gitCommits: deps.store.gitCommits })
          : undefined,
        gitDir: deps.gitDir,
        logger: deps.logger,
      },
      FILE_IDS,
    ),
  );
  app.route("/api/repos", repoAdminRoutes(repoDeps));
  app.route("/api/validate-yaml", validateYamlRoute());
  return { access, mirror: mirror?.port };
}

/**
 * Whether a repository page that names no local repository shows one mirrored from upstream: the page's API
 * calls would bring it in, so the page asks first (the same lookup, with the caller's rights) rather than
 * answering 404 to a page that then renders. Upstream unreachable or refusing: not found, as the API says.
 */
async function mirroredForPage(
  repositories: { access: RepoAccess; mirror?: RepoMirror },
  c: Context,
  type: RepoType,
  id: string,
): Promise<boolean> {
  if (!repositories.mirror) return false;
  const actor = repositories.access.actor(c);
  return repositories.mirror.lookup(type, id, actor).then(
    (repo) => repo !== undefined,
    () => false,
  );
}

/** The scan service over the store's queue, reading content from the blob store or the Xet store. */
function assembleScanning(
  deps: AppDeps,
  scanning: NonNullable<AppDeps["scanning"]>,
  blobs: BlobStore,
  cas: ReturnType<typeof createCasService>,
): ScanService {
  const reader = contentReader({ blobs, cas });
  const service = createScanService({
    table: deps.store.scanning,
    scanFile: scanning.scanFile,
    rulesVersion: scanning.rulesVersion,
    openSource: reader.openSource,
    contentHeld: reader.held,
    // The backfill at start and on the admin re-scan: files stored before scanning, or whose row was lost.
    walkRefs: () => refFiles(deps.store),
    policy: scanning.policy,
    concurrency: scanning.concurrency,
    pollMs: scanning.pollMs,
    logger: deps.logger,
  });
  scanning.expose?.(service);
  return service;
}
