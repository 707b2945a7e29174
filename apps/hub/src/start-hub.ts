import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import type { ProviderSim, SimModel } from "@modelhub/provider-sim";
import type { OidcSettings } from "./accounts/oidc.js";
import { orgNamesOf } from "./accounts/org-names.js";
import { createApp } from "./app.js";
import type { AuditService } from "./audit/audit-service.js";
import { createActorResolver } from "./auth/actor-resolver.js";
import { createAuthorizer } from "./auth/authorize.js";
import { BUILT_IN_CATALOGUE_DIR, seedOnFirstStart, sourcedCreationDates } from "./catalogue/catalogue.js";
import { catalogueService } from "./catalogue/catalogue-service.js";
import type { ModelListQuery } from "./catalogue/models-table.js";
import { DEFAULT_KEEP_ALIVE_SECONDS } from "./config.js";
import { HubServerResponse } from "./http/head-with-body.js";
import { createMetrics } from "./http/metrics.js";
import { answerMissingHost, answerParserError } from "./http/parser-errors.js";
import { normalizePublicUrl } from "./http/public-url.js";
import { createCasService } from "./lfs-xet/cas-service.js";
import { checkXetSha256sOnce } from "./lfs-xet/sha256-backfill.js";
import { collectXetGarbage } from "./lfs-xet/xet-gc.js";
import { XetSigner } from "./lfs-xet/xet-tokens.js";
import type { RateLimitPolicy } from "./limits/rate-limit-policy.js";
import type { RateLimiter } from "./limits/rate-limiter.js";
import type { StorageQuotaPolicy } from "./limits/storage-quotas.js";
import { type Logger, silentLogger } from "./logger.js";
import type { MirrorSettings } from "./mirror/mirror-config.js";
import { openPullDir } from "./mirror/mirror-content.js";
import { createUpstreamClient } from "./mirror/upstream-client.js";
import { deriveRepoCardsOnce } from "./repos/repo-card-backfill.js";
import { createRepoService } from "./repos/repo-service.js";
import { seedRepositories } from "./repos/seed-repositories.js";
import type { ForwardTimeouts } from "./router/forward.js";
import type { LocalEngine, LocalEngineLimits } from "./router/local-engine.js";
import { DEFAULT_LOCAL_MAX_MODEL_BYTES, startLocalProvider } from "./router/local-provider.js";
import { orgProviderAgent } from "./router/org-provider-target.js";
import { createSecretBox, loadSecretsKey, type SecretBox } from "./router/own-provider-secrets.js";
import { createOwnProvidersRegistry } from "./router/own-providers-registry.js";
import { createProviderAgent } from "./router/provider-agent.js";
import { isServedMapping } from "./router/served.js";
import { createUpstreams, generateSimCredential, type Upstreams } from "./router/upstreams.js";
import { clamdScan } from "./scanning/clamd-antivirus.js";
import type { ScanSettings } from "./scanning/scan-config.js";
import { contentReader } from "./scanning/scan-content.js";
import { SCANNER_RULES_VERSION, scanFile } from "./scanning/scan-file.js";
import type { ScanService } from "./scanning/scan-service.js";
import { createSearchService } from "./search/search-service.js";
import type { BlobStore } from "./storage/blob-store.js";
import {
  type BlobDownloadMode,
  type BlobStoreSetting,
  type DownloadOffload,
  openBlobStore,
} from "./storage/blob-store-config.js";
import { openStore, type Store } from "./store/store.js";
import type { ViewerService } from "./viewer/viewer-service.js";
import type { DeliverySettings, WebhooksService } from "./webhooks/webhooks-service.js";

export interface StartHubOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1 (loopback only). */
  host?: string;
  /** Where users reach the hub (a proxy's URL); every URL the hub writes starts with it. Default: `url`. */
  publicUrl?: string;
  /**
   * SPACES_PORT: the port of the spaces origin, where static spaces' sites are served (0 picks a free one;
   * "off" serves none). Default 0.
   */
  spacesPort?: number | "off";
  /** SPACES_URL: where browsers reach the spaces origin (a proxy's URL); default its listening address. */
  spacesUrl?: string;
  dataDir: string;
  /** `postgres://...` (DATABASE_URL) selects PostgreSQL; unset keeps SQLite in `dataDir`. */
  databaseUrl?: string;
  /** Where file bytes are kept (default: `dataDir/blobs`). */
  blobStore?: BlobStoreSetting;
  /** "redirect": downloads of LFS files go to the object store's presigned URLs (default "proxy"). */
  blobDownload?: BlobDownloadMode;
  /** DOWNLOAD_OFFLOAD=x-accel: nginx in front sends the bytes of the files `/resolve` authorized. */
  downloadOffload?: DownloadOffload;
  /** Days per-call usage rows are kept (router/usage-table.ts); default 30. */
  usageRetentionDays?: number;
  /** KEEP_ALIVE_SECONDS: how long an idle client connection stays open, on the hub and the spaces origin; default 65. */
  keepAliveSeconds?: number;
  adminToken?: string;
  /** Provider name -> API key. Providers without a key are served by provider-sim. */
  providerKeys?: Record<string, string>;
  /** Provider name -> base URL, overriding the registry's (tests, private deployments). */
  providerBaseUrls?: Record<string, string>;
  webDist?: string;
  /** Origins model cards' images may load from besides the hub (CARD_IMAGE_ORIGINS). */
  cardImageOrigins?: string[];
  logger?: Logger;
  /** Catalogue loaded on the first start of `dataDir`; defaults to the built-in one. */
  catalogueDir?: string;
  /** How long close() waits for in-flight requests before cutting connections. */
  shutdownGraceMs?: number;
  /** How often Xet garbage collection runs (lfs-xet/xet-gc.ts); default hourly, 0 turns it off. */
  xetGcIntervalMs?: number;
  /**
   * Start provider-sim in this process for the providers that have neither a key nor a base URL (default
   * true), so the router works offline.
   */
  providerSim?: boolean;
  routerTimeouts?: Partial<ForwardTimeouts>;
  /** Who may create an account through the API (default "closed"). */
  signupPolicy?: "open" | "invite" | "closed";
  /** Single sign-on through an OpenID Connect provider. */
  oidc?: OidcSettings;
  /** Part size of LFS multipart uploads (larger objects use them); default 1 GiB (lfs-xet/lfs-routes.ts). */
  lfsMultipartChunkBytes?: number;
  /** Let callers' `x-sim-*` headers reach provider-sim (tests and the benchmark only; default false). */
  forwardSimHeaders?: boolean;
  /**
   * SECRETS_KEY: what own providers' API keys are sealed with (router/own-provider-secrets.ts); unset, a key
   * the hub writes to `dataDir/secrets.key`.
   */
  secretsKey?: string;
  /** How often the own providers' health is checked (router/own-providers-registry.ts); default 15 s. */
  ownProvidersHealthIntervalMs?: number;
  /**
   * ORG_PROVIDERS_ALLOW_PRIVATE=1: organizations' own providers may be at loopback, link-local and private
   * addresses (router/org-provider-target.ts). Off by default: an organization's admin is not the site's.
   */
  orgProvidersAllowPrivate?: boolean;
  /**
   * LOCAL_PROVIDER=on: the built-in llama.cpp provider (router/local-engine.ts), off by default. `expose`
   * receives its engine (tests read its counters and hold its slots).
   */
  localProvider?: {
    limits?: Partial<LocalEngineLimits>;
    /** LOCAL_PROVIDER_MAX_MODEL_BYTES (default 8 GiB). */
    maxModelBytes?: number;
    expose?(engine: LocalEngine): void;
  };
  /** Mirror an upstream hub (UPSTREAM_URL and the MIRROR_* settings: mirror/mirror-config.ts). */
  mirror?: MirrorSettings;
  /** RATE_LIMITS (limits/rate-limit-policy.ts): unset, no rate limits. */
  rateLimits?: RateLimitPolicy;
  /** AUDIT_RETENTION_DAYS: days audit log entries are kept (default 365; pruned hourly). */
  auditRetentionDays?: number;
  /** STORAGE_QUOTAS (limits/storage-quotas.ts): unset, no quotas. */
  storageQuotas?: StorageQuotaPolicy;
  /** Webhooks (webhooks/webhooks-service.ts): WEBHOOK_ALLOW_PRIVATE and the delivery settings. */
  webhooks?: {
    allowPrivate?: boolean;
    delivery?: Partial<DeliverySettings>;
    /** Run the delivery workers in this process (default true); events are queued either way. */
    workers?: boolean;
  };
  /** SCAN_POLICY and SCAN_CONCURRENCY (scanning/scan-config.ts); default warn, one scan at a time. */
  /** The dataset viewer's conversion workers (default on) and how often an idle one polls the queue. */
  viewer?: {
    workers?: boolean;
    pollMs?: number;
    /** Bytes of a split converted before it is marked partial (default 5 GB, as the public viewer). */
    splitLimitBytes?: number;
  };
  scanning?: Partial<ScanSettings> & {
    /** How often an idle scan worker looks for what other replicas queued. */
    pollMs?: number;
    /** Run the scan workers in this process (default true); files are queued and scanned on demand either way. */
    workers?: boolean;
  };
}

export interface RunningHub {
  /** The address the hub listens on. */
  url: string;
  /** The configured public URL, or `url`. */
  publicUrl: string;
  /** Where browsers reach the spaces origin (SPACES_URL, or its listening address); undefined when off. */
  spacesUrl: string | undefined;
  store: Store;
  /** URL of the in-process provider-sim, when one was started. */
  providerSimUrl: string | undefined;
  /** Provider names by where the router sends them. */
  routing: ReturnType<Upstreams["summary"]>;
  /** The content scanner (queue, workers, reports), when the hub serves repositories. */
  scanning: ScanService | undefined;
  /** The dataset viewer's conversions (queue and workers), when the hub serves repositories. */
  viewer: ViewerService | undefined;
  /** Webhooks and their delivery workers. */
  webhooks: WebhooksService | undefined;
  close(): Promise<void>;
}

/** Every stored model that declares a task, as the simulator's model registry takes it. */
async function catalogueForSim(store: Store): Promise<SimModel[]> {
  const models: SimModel[] = [];
  let after: ModelListQuery["after"];
  for (;;) {
    const page = await store.models.list({
      sort: "createdAt",
      direction: 1,
      limit: 500,
      after,
      visibleTo: { all: true },
    });
    for (const model of page.models) {
      // With the hub's mappings: a provider's answer depends on the model it was asked for (a Replicate
      // version hash names a video model, and the simulator would otherwise guess an image from it).
      if (model.pipeline_tag)
        models.push({
          id: model.id,
          pipeline_tag: model.pipeline_tag,
          tags: model.tags,
          inferenceProviderMapping: await store.mappings.forModel(model.id),
        });
    }
    const last = page.models.at(-1);
    if (!page.hasMore || !last) return models;
    after = { value: last.createdAt, id: last.id };
  }
}

/** Opens the store (migrating and seeding it), builds the app and listens on loopback. */
export async function startHub(options: StartHubOptions): Promise<RunningHub> {
  const logger = options.logger ?? silentLogger;
  const store = await openStore({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    usageRetentionDays: options.usageRetentionDays,
  });
  try {
    const seeded = await seedOnFirstStart(
      store,
      options.catalogueDir ?? BUILT_IN_CATALOGUE_DIR,
      INFERENCE_PROVIDERS,
      undefined,
      isServedMapping,
    );
    if (seeded) logger.log("info", "catalogue loaded", seeded);
  } catch (error) {
    await store.close();
    throw error;
  }
  const metrics = createMetrics({ processMetrics: true });
  if (store.db.poolState) metrics.watchDatabasePool(store.db.poolState);
  let blobs: BlobStore;
  // A CAS that only reconstructs Xet files' bytes: reading needs no signing key.
  const readingCas = (from: BlobStore) =>
    createCasService({ xet: store.xet, gc: store.xetGc, blobs: from, signer: new XetSigner(), casUrl: "" });
  try {
    blobs = await openBlobStore(
      options.blobStore ?? { kind: "fs" },
      options.dataDir,
      metrics.observeBlobCall,
    );
    // Catalogue models without files become repositories (their demo copies), once.
    const started = Date.now();
    const repoService = createRepoService({ store, blobs });
    const repositories = await seedRepositories(catalogueService(store), repoService, {
      originalCreatedAt: sourcedCreationDates(options.catalogueDir ?? BUILT_IN_CATALOGUE_DIR),
    });
    if (repositories) {
      logger.log("info", "catalogue repositories created", { repositories, ms: Date.now() - started });
    }
    const cards = await deriveRepoCardsOnce(store, repoService, logger);
    if (cards) logger.log("info", "dataset and space cards indexed", { repositories: cards });
    // The search index: what it lacks (repositories from before it, a copied database) is built now.
    const searchStarted = Date.now();
    const searchIndexed = await createSearchService(store).backfill();
    if (searchIndexed) {
      logger.log("info", "search index built", { documents: searchIndexed, ms: Date.now() - searchStarted });
    }
    const xetChecked = await checkXetSha256sOnce(store, readingCas(blobs), logger);
    if (xetChecked) logger.log("info", "sha256 of Xet files checked", { files: xetChecked });
  } catch (error) {
    await store.close();
    throw error;
  }

  const simCredential = generateSimCredential();
  const needsSim = INFERENCE_PROVIDERS.some(
    (provider) => !options.providerKeys?.[provider] && !options.providerBaseUrls?.[provider],
  );
  let sim: ProviderSim | undefined;
  if (needsSim && options.providerSim !== false) {
    // The simulator accepts only the hub's own credential: a caller's token is never forwarded.
    // It knows the catalogue's models, so hf-inference answers for each with its task's shape.
    // Loaded only here: the simulator and its recorded fixtures cost nothing when every provider has a key.
    const { startProviderSim } = await import("@modelhub/provider-sim");
    sim = await startProviderSim({ hubTokens: [simCredential], models: await catalogueForSim(store) });
  }
  const upstreams = createUpstreams({
    providerKeys: options.providerKeys,
    providerBaseUrls: options.providerBaseUrls,
    simUrl: sim?.url,
    simCredential,
  });

  // One resolver (and its token cache) for the API and the router: a revocation clears it for both.
  const actorResolver = createActorResolver({ accounts: store.accounts, adminToken: options.adminToken });
  const authorizer = createAuthorizer({ accounts: store.accounts });
  // The router's connections to providers, closed with the hub.
  const providerAgent = createProviderAgent();
  // Own providers' keys are sealed with the secrets key, loaded when first needed (a hub that never stores
  // one writes no key file); their health is checked from start to close.
  let secretBox: SecretBox | undefined;
  const ownSecrets = () => {
    secretBox ??= createSecretBox(loadSecretsKey(options.secretsKey, options.dataDir));
    return secretBox;
  };
  // The built-in llama.cpp provider: its models copied out of the blob store on first use, its engine loaded
  // (and node-llama-cpp imported) on the first call, its OpenAI-compatible server on loopback.
  const localProvider = options.localProvider
    ? await startLocalProvider(options.localProvider, {
        db: store.db,
        repos: createRepoService({ store, blobs }),
        // From the blob store, or from Xet chunks for a file uploaded through Xet (reading needs no signing key).
        openFile: async (repoKey, file) =>
          (await contentReader({ blobs, cas: readingCas(blobs) }).openSource({ ...file, repoKey }))?.open(),
        cacheDir: join(options.dataDir, "local-models"),
        logger,
      })
    : undefined;
  // Organizations' providers connect through an agent that refuses private addresses, unless allowed.
  const orgProvidersAgent = options.orgProvidersAllowPrivate ? providerAgent : orgProviderAgent();
  const ownRegistry = createOwnProvidersRegistry({
    db: store.db,
    secrets: ownSecrets,
    dispatcher: providerAgent,
    orgDispatcher: orgProvidersAgent,
    orgNames: orgNamesOf(store.accounts),
    logger,
    local: localProvider && (() => localProvider.registryEntry),
  });
  // The mirror's connections to its upstream hub, closed with the hub.
  const upstreamClient = options.mirror ? createUpstreamClient(options.mirror) : undefined;
  // Where the mirror writes content while it is fetched (beside the blobs: same disk; swept if left over).
  const pullDir = options.mirror ? await openPullDir(options.dataDir) : undefined;
  const host = options.host ?? "127.0.0.1";
  // Checked before listening, so a bad URL leaves no socket open.
  const configuredPublicUrl =
    options.publicUrl === undefined ? undefined : normalizePublicUrl(options.publicUrl);
  // The app is built once the port is known (the default public URL is the listening address); nothing
  // can reach the listener before then, as no I/O runs between `listen`'s callback and the assignment.
  let honoListener: ReturnType<typeof getRequestListener> | undefined;
  // node:http's own Host check and parser errors answer with a bare status: the hub answers them in JSON.
  const server = createServer(
    { requireHostHeader: false, ServerResponse: HubServerResponse },
    (incoming, outgoing) => {
      if (answerMissingHost(incoming, outgoing)) return;
      if (honoListener) void honoListener(incoming, outgoing);
      else outgoing.writeHead(503).end();
    },
  );
  server.on("clientError", answerParserError);
  keepIdleConnections(server, options.keepAliveSeconds);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const publicUrl = configuredPublicUrl ?? url;
  // The spaces origin: static spaces' sites, on their own port so that their scripts are another origin.
  const spaces =
    options.spacesPort === "off"
      ? undefined
      : await listenSpacesOrigin(host, options.spacesPort ?? 0, options.spacesUrl, options.keepAliveSeconds);
  let scanService: ScanService | undefined;
  let viewerService: ViewerService | undefined;
  let webhooksService: WebhooksService | undefined;
  let rateLimiter: RateLimiter | undefined;
  let auditService: AuditService | undefined;
  const app = createApp({
    store,
    logger,
    adminToken: options.adminToken,
    webDist: options.webDist,
    cardImageOrigins: options.cardImageOrigins,
    actorResolver,
    authorizer,
    signupPolicy: options.signupPolicy,
    oidc: options.oidc,
    publicUrl,
    blobs,
    spaces: spaces && { url: spaces.url, expose: spaces.serve },
    gitDir: join(options.dataDir, "git"),
    lfsMultipartChunkBytes: options.lfsMultipartChunkBytes,
    blobDownload: options.blobDownload,
    downloadOffload: options.downloadOffload,
    mirror:
      options.mirror && upstreamClient && pullDir
        ? { settings: options.mirror, upstream: upstreamClient, pullDir }
        : undefined,
    draining: () => closing !== undefined,
    metrics,
    storageQuotas: options.storageQuotas,
    audit: {
      retentionDays: options.auditRetentionDays,
      expose: (service) => {
        auditService = service;
      },
    },
    rateLimits: options.rateLimits
      ? {
          policy: options.rateLimits,
          expose: (limiter) => {
            rateLimiter = limiter;
          },
        }
      : undefined,
    webhooks: {
      allowPrivate: options.webhooks?.allowPrivate,
      delivery: options.webhooks?.delivery,
      // The listening address is the hub too, whatever PUBLIC_URL says.
      hubOrigins: [new URL(url).origin],
      expose: (service) => {
        webhooksService = service;
      },
    },
    viewer: {
      dir: join(options.dataDir, "viewer"),
      pollMs: options.viewer?.pollMs,
      splitLimitBytes: options.viewer?.splitLimitBytes,
      expose: (service) => {
        viewerService = service;
      },
    },
    scanning: {
      scanFile: (source) => {
        const clamd = options.scanning?.clamd;
        return scanFile(source, clamd ? { antivirus: (scanned) => clamdScan(scanned, clamd) } : {});
      },
      rulesVersion: SCANNER_RULES_VERSION,
      policy: options.scanning?.policy,
      concurrency: options.scanning?.concurrency,
      pollMs: options.scanning?.pollMs,
      expose: (service) => {
        scanService = service;
      },
    },
    router: {
      upstreams,
      dispatcher: providerAgent,
      timeouts: options.routerTimeouts,
      forwardSimHeaders: options.forwardSimHeaders,
      ownProviders: { registry: ownRegistry, secrets: ownSecrets },
      orgProvidersAllowPrivate: options.orgProvidersAllowPrivate,
      localProvider: options.localProvider && {
        maxModelBytes: options.localProvider.maxModelBytes ?? DEFAULT_LOCAL_MAX_MODEL_BYTES,
        engineState: localProvider && (() => localProvider.engine.stats()),
      },
    },
  });
  ownRegistry.start(options.ownProvidersHealthIntervalMs);
  honoListener = getRequestListener(app.fetch, { hostname: host });
  // The scanner's workers: off the request path, resuming what a stopped replica left (leases expire).
  if (options.scanning?.workers !== false) await scanService?.start();
  // Dataset conversions, off the request path; a job a stopped replica held is retaken when its lease ends.
  if (options.viewer?.workers !== false) await viewerService?.start();
  // Webhook deliveries: from the database's queue, resuming what a stopped replica left.
  if (options.webhooks?.workers !== false) webhooksService?.start();
  // Rate-limit counts shared with the other replicas every policy.syncMs.
  rateLimiter?.start();

  const xetGc = startXetGc(store, blobs, logger, options.xetGcIntervalMs ?? 60 * 60 * 1000);
  // Audit entries past their retention, at start and hourly (any replica may: the delete is idempotent).
  const pruneAudit = () =>
    auditService?.prune().catch((error: unknown) => {
      logger.log("error", "pruning the audit log failed", { error: String(error) });
    });
  void pruneAudit();
  const auditPrune = setInterval(pruneAudit, 60 * 60 * 1000);
  auditPrune.unref();

  // Set by close(): from then on /readyz answers 503 while requests in flight finish.
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      const grace = setTimeout(() => {
        server.closeAllConnections();
      }, options.shutdownGraceMs ?? 5000);
      // Keep-alive connections become idle as their last response ends; close them as they do.
      const sweep = setInterval(() => {
        server.closeIdleConnections();
      }, 25);
      server.close(async () => {
        clearTimeout(grace);
        clearInterval(sweep);
        clearInterval(xetGc);
        clearInterval(auditPrune);
        await ownRegistry.stop();
        await localProvider?.close().catch(() => {});
        // A scan under way ends (its report kept) before the store closes; an unfinished one's lease expires.
        await scanService?.stop().catch(() => {});
        await viewerService?.stop().catch(() => {});
        // Attempts under way end first; what is still queued is delivered after the next start.
        await webhooksService?.stop().catch(() => {});
        await rateLimiter?.stop().catch(() => {});
        // A failed close can lose the usage records still queued: said in the log, not swallowed.
        Promise.allSettled([
          store.close(),
          sim?.close(),
          providerAgent.close(),
          orgProvidersAgent === providerAgent ? undefined : orgProvidersAgent.close(),
          upstreamClient?.close(),
        ]).then(([stored, simulated, agent]) => {
          for (const [what, outcome] of [
            ["the store", stored],
            ["the provider simulator", simulated],
            ["the connections to providers", agent],
          ] as const) {
            if (outcome?.status === "rejected")
              logger.log("error", `shutdown: ${what} did not close cleanly`, {
                error: String(outcome.reason),
              });
          }
          resolve();
        });
      });
      server.closeIdleConnections();
      spaces?.close();
    });
    return closing;
  };
  return {
    url,
    publicUrl,
    spacesUrl: spaces?.url,
    store,
    close,
    providerSimUrl: sim?.url,
    routing: upstreams.summary(),
    scanning: scanService,
    viewer: viewerService,
    webhooks: webhooksService,
  };
}

/** The spaces origin's listener; its app comes from createApp (`serve`), until then it answers 503. */
async function listenSpacesOrigin(
  host: string,
  port: number,
  configuredUrl: string | undefined,
  keepAliveSeconds: number | undefined,
) {
  const publicUrl = configuredUrl === undefined ? undefined : normalizePublicUrl(configuredUrl);
  let listener: ReturnType<typeof getRequestListener> | undefined;
  const server = createServer({ requireHostHeader: false }, (incoming, outgoing) => {
    if (listener) void listener(incoming, outgoing);
    else outgoing.writeHead(503).end();
  });
  server.on("clientError", answerParserError);
  keepIdleConnections(server, keepAliveSeconds);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: publicUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`,
    serve(app: { fetch: Parameters<typeof getRequestListener>[0] }) {
      listener = getRequestListener(app.fetch, { hostname: host });
    },
    close() {
      server.close();
      server.closeAllConnections();
    },
  };
}

/** Runs Xet garbage collection every `intervalMs` (not at start: a restart loop must not turn into a GC loop). */
function startXetGc(store: Store, blobs: BlobStore, logger: Logger, intervalMs: number) {
  const timer = setInterval(
    () => {
      collectXetGarbage({ gc: store.xetGc, blobs }).then(
        (report) => {
          if (report.filesDeleted || report.xorbsMarked || report.xorbsDeleted) {
            logger.log("info", "xet garbage collection", { ...report });
          }
        },
        (error: unknown) => logger.log("warn", "xet garbage collection failed", { error: String(error) }),
      );
    },
    intervalMs || 2 ** 31 - 1,
  );
  if (!intervalMs) clearInterval(timer);
  timer.unref();
  return timer;
}

/**
 * Idle client connections kept `seconds` (default 65), longer than a load balancer's idle timeout (nginx's
 * upstream keepalive and AWS ALB: 60 s): node's 5 s default closes connections the balancer still reuses,
 * which its clients see as 502s. node:http answers with `Keep-Alive: timeout=<seconds>`, so clients such as
 * undici keep theirs as long. (node 20's head timer runs only while a request's head is being read, so an
 * idle connection is not cut by it.)
 */
function keepIdleConnections(server: Server, seconds = DEFAULT_KEEP_ALIVE_SECONDS): void {
  server.keepAliveTimeout = seconds * 1000;
}
