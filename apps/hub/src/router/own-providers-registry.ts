import type { Dispatcher } from "undici";
import type { Logger } from "../logger.js";
import type { Queryable } from "../store/database.js";
import { createLocalProviderTable } from "./local-provider-table.js";
import { orgProviderId, orgProviderSealName } from "./org-own-providers-service.js";
import { createOrgOwnProvidersTable } from "./org-own-providers-table.js";
import { createOrgProviderPricesTable } from "./org-provider-prices-table.js";
import type { SecretBox } from "./own-provider-secrets.js";
import type { OwnProviderHealth } from "./own-providers-service.js";
import { createOwnProvidersTable, type OwnModelKind, type OwnProviderRow } from "./own-providers-table.js";
import { createRouterOffersTable, type RouterOffer } from "./router-offers-table.js";
import type { Upstream } from "./upstreams.js";

/** How long the router reuses what it read of the own providers' tables (the admin CLI's changes show this late). */
export const OWN_PROVIDERS_TTL_MS = 1000;

/**
 * How long past its own answer limit the router waits for the local provider's head: a model's load is not
 * interrupted (local-engine.ts checks the limit once it is done), and a large GGUF may take this long to load.
 */
const LOCAL_LOAD_MARGIN_MS = 120_000;

/** How often each hub process checks its own providers' health. */
export const DEFAULT_HEALTH_INTERVAL_MS = 15_000;
/** Longest wait for a health check's answer (or the provider's own headers timeout, when shorter). */
const HEALTH_TIMEOUT_MS = 5_000;
/**
 * An organization's admin checks its providers now at most this often: asked more often, the check under way
 * or just made is the answer (each check is a request to every one of its servers, which may be anyone's).
 */
export const ORG_CHECK_MIN_INTERVAL_MS = 5_000;

/** An own provider as the router calls it. */
export interface OwnProvider {
  /** A site provider's name, or an organization's provider's `org/name`. */
  name: string;
  upstream: Upstream;
  timeouts: { headersMs: number; idleMs: number };
  hostedFailover: boolean;
  /** The organization whose members alone may use it; null for the site's (everyone's). */
  orgId: number | null;
  /** The connections its calls take (an organization's are checked against private addresses). */
  dispatcher: Dispatcher;
}

/** The own providers and what each serves, as read at one moment. */
export interface OwnProvidersSnapshot {
  providers: ReadonlyMap<string, OwnProvider>;
  /** The providers serving a hub model (its exact id) for a kind of call, in the order they were added. */
  servedBy(modelId: string, kind: OwnModelKind): { provider: OwnProvider; servedName: string }[];
  /** Every hub model served for a kind of call, with its providers. */
  modelsServed(kind: OwnModelKind): Map<string, { provider: OwnProvider; servedName: string }[]>;
  /** The configured offer (prices, context length) of a provider, hosted or own, for a hub model. */
  offerOf(provider: string, modelId: string): RouterOffer | undefined;
  /** Whether any organization has a provider: when none, callers' organizations need not be read. */
  hasOrgProviders: boolean;
}

export interface OwnProvidersRegistryDeps {
  db: Queryable;
  secrets: () => SecretBox;
  dispatcher: Dispatcher;
  /**
   * The connections of organizations' providers (and their health checks): addresses an organization's
   * admin may not reach through the hub refused at every connection. The router's own by default.
   */
  orgDispatcher?: Dispatcher;
  /** The names of organizations (by id): their providers are named `org/name`. */
  orgNames?(ids: readonly number[]): Promise<ReadonlyMap<number, string>>;
  logger: Logger;
  /** Where `apiKeyEnv` variables are read (process.env by default). */
  env?: Readonly<Record<string, string | undefined>>;
  now?: () => number;
  /**
   * The built-in llama.cpp provider's loopback server (local-provider-server.ts), when it runs: one more own
   * provider, named `local`, serving the models enabled in its table (migration 38) for chat.
   */
  local?: () =>
    | {
        name: string;
        baseUrl: string;
        secret: string;
        servedName(modelId: string, quantization: string): string;
        /** Its answer's time limit (LocalEngineLimits.answerMs), which it enforces itself. */
        answerMs: number;
      }
    | undefined;
}

/**
 * The router's view of the own providers (own-providers-service.ts writes them): read from the tables at
 * most once per OWN_PROVIDERS_TTL_MS, so that the admin CLI (another process) or another replica is seen
 * without a restart; and each one's health in this process, from periodic checks of its health path and
 * from calls that could not reach it. A provider that is down is skipped by the selection until a check
 * finds it up again.
 */
export function createOwnProvidersRegistry(deps: OwnProvidersRegistryDeps) {
  const table = createOwnProvidersTable(deps.db);
  const offersTable = createRouterOffersTable(deps.db);
  const localTable = createLocalProviderTable(deps.db);
  const orgTable = createOrgOwnProvidersTable(deps.db);
  const orgPricesTable = createOrgProviderPricesTable(deps.db);
  const orgDispatcher = deps.orgDispatcher ?? deps.dispatcher;
  /** Each provider's health path, as last read (the periodic check goes through them). */
  let healthPaths = new Map<string, string>();
  let localUpstream: Upstream | undefined;
  const now = deps.now ?? (() => performance.now());
  const env = deps.env ?? process.env;
  const health = new Map<string, OwnProviderHealth>();
  /**
   * Providers left out because their stored key does not open (the secrets key changed, a sealed key copied
   * onto another row): what their health says, so that the admin page tells why they are never called.
   */
  const unusableKeys = new Map<string, OwnProviderHealth>();
  // One Upstream per provider version: the router's scrubbers are compiled once per Upstream object.
  const upstreams = new Map<string, { updatedAt: string; upstream: Upstream | undefined }>();
  let cached: { snapshot: OwnProvidersSnapshot; expires: number } | undefined;
  let loading: Promise<OwnProvidersSnapshot> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;

  /** `name`: the router's name; `sealedAs`: what the key was sealed for (own-provider-secrets.ts). */
  function upstreamOf(
    name: string,
    sealedAs: string,
    row: Pick<OwnProviderRow, "apiKeySealed" | "apiKeyEnv" | "baseUrl" | "updatedAt">,
  ): Upstream | undefined {
    const known = upstreams.get(name);
    if (known?.updatedAt === row.updatedAt) return known.upstream;
    let secret = "";
    try {
      if (row.apiKeySealed !== null) secret = deps.secrets().open(sealedAs, row.apiKeySealed);
      else if (row.apiKeyEnv !== null) secret = env[row.apiKeyEnv] ?? "";
    } catch (error) {
      // Logged by name only: the error says what to do, and holds nothing of the key.
      deps.logger.log("error", "own provider key unusable", { provider: name, error: String(error) });
      upstreams.set(name, { updatedAt: row.updatedAt, upstream: undefined });
      unusableKeys.set(name, {
        status: "down",
        checkedAt: new Date().toISOString(),
        error:
          "its stored API key cannot be decrypted with this hub's secrets key (changed since it was set?): " +
          "set the key again; it is not called until then",
      });
      return undefined;
    }
    unusableKeys.delete(name);
    const upstream: Upstream = {
      provider: name,
      baseUrl: row.baseUrl,
      authHeader: { name: "Authorization", value: secret === "" ? "" : `Bearer ${secret}` },
      target: "own",
      secret,
    };
    upstreams.set(name, { updatedAt: row.updatedAt, upstream });
    return upstream;
  }

  async function load(): Promise<OwnProvidersSnapshot> {
    const local = deps.local?.();
    const [rows, models, offerRows, localRows, orgRows, orgModels, orgPrices] = await Promise.all([
      table.list(),
      table.models(),
      offersTable.list(),
      local ? localTable.list() : [],
      orgTable.listAll(),
      orgTable.modelsAll(),
      orgPricesTable.listAll(),
    ]);
    const offers = new Map(offerRows.map((offer) => [`${offer.provider}\0${offer.modelId}`, offer]));
    const providers = new Map<string, OwnProvider>();
    const paths = new Map<string, string>();
    const add = (provider: OwnProvider, healthPath: string, changed: boolean) => {
      providers.set(provider.name, provider);
      paths.set(provider.name, healthPath);
      // A provider added or changed (here, by the admin CLI or another replica) is checked at once rather
      // than at the next period, when this process checks health at all.
      if (changed && timer) void checkOne(provider, healthPath);
    };
    for (const row of rows) {
      const changed = upstreams.get(row.name)?.updatedAt !== row.updatedAt;
      const upstream = upstreamOf(row.name, row.name, row);
      if (!upstream) continue;
      const provider: OwnProvider = {
        name: row.name,
        upstream,
        timeouts: { headersMs: row.headersTimeoutMs, idleMs: row.idleTimeoutMs },
        hostedFailover: row.hostedFailover,
        orgId: null,
        dispatcher: deps.dispatcher,
      };
      add(provider, row.healthPath, changed);
    }
    // Organizations' providers, named `org/name` (a slash no site provider's name has: no clash).
    const orgNames =
      orgRows.length > 0 && deps.orgNames
        ? await deps.orgNames([...new Set(orgRows.map((row) => row.orgId))])
        : new Map<number, string>();
    for (const row of orgRows) {
      const orgName = orgNames.get(row.orgId);
      if (orgName === undefined) continue;
      const name = orgProviderId(orgName, row.name);
      const changed = upstreams.get(name)?.updatedAt !== row.updatedAt;
      const upstream = upstreamOf(name, orgProviderSealName(row.orgId, row.name), {
        ...row,
        apiKeyEnv: null,
      });
      if (!upstream) continue;
      const provider: OwnProvider = {
        name,
        upstream,
        timeouts: { headersMs: row.headersTimeoutMs, idleMs: row.idleTimeoutMs },
        hostedFailover: row.hostedFailover,
        orgId: row.orgId,
        dispatcher: orgDispatcher,
      };
      add(provider, row.healthPath, changed);
    }
    for (const model of orgModels) {
      const orgName = orgNames.get(model.orgId);
      if (orgName === undefined) continue;
      models.push({
        provider: orgProviderId(orgName, model.provider),
        modelId: model.modelId,
        kind: model.kind,
        servedName: model.servedName,
      });
    }
    // Organizations' prices, under the router's name of their provider (no site offer can name it: a site
    // offer's provider is a hosted or site own provider, whose names have no slash).
    for (const price of orgPrices) {
      const orgName = orgNames.get(price.orgId);
      if (orgName === undefined) continue;
      const provider = orgProviderId(orgName, price.provider);
      offers.set(`${provider}\0${price.modelId}`, {
        provider,
        modelId: price.modelId,
        inputPrice: price.inputPrice,
        outputPrice: price.outputPrice,
        contextLength: price.contextLength,
        updatedAt: price.updatedAt,
      });
    }
    healthPaths = paths;
    if (local && !providers.has(local.name)) {
      // One Upstream object for the server's life (its key scrubber is compiled once per object).
      if (localUpstream?.baseUrl !== local.baseUrl) {
        localUpstream = {
          provider: local.name,
          baseUrl: local.baseUrl,
          authHeader: { name: "Authorization", value: `Bearer ${local.secret}` },
          target: "own",
          secret: local.secret,
        };
      }
      providers.set(local.name, {
        name: local.name,
        upstream: localUpstream,
        // A whole answer's head comes at its end: the provider answers its own limit's 504 (the queue, the
        // load and the generation all count) before this timeout, with room for a load it cannot interrupt.
        timeouts: { headersMs: local.answerMs + LOCAL_LOAD_MARGIN_MS, idleMs: 60_000 },
        hostedFailover: true,
        orgId: null,
        dispatcher: deps.dispatcher,
      });
      for (const row of localRows) {
        models.push({
          provider: local.name,
          modelId: row.modelId,
          kind: "chat",
          servedName: local.servedName(row.modelId, row.quantization),
        });
      }
    }
    for (const name of [...health.keys()]) if (!providers.has(name)) health.delete(name);
    const stored = new Set([
      ...rows.map((row) => row.name),
      ...orgRows.map((row) => orgProviderId(orgNames.get(row.orgId) ?? "", row.name)),
    ]);
    for (const name of [...unusableKeys.keys()]) if (!stored.has(name)) unusableKeys.delete(name);
    const byKind = new Map<OwnModelKind, Map<string, { provider: OwnProvider; servedName: string }[]>>();
    for (const model of models) {
      const provider = providers.get(model.provider);
      if (!provider) continue;
      const served = byKind.get(model.kind) ?? new Map();
      byKind.set(model.kind, served);
      const list = served.get(model.modelId) ?? [];
      list.push({ provider, servedName: model.servedName });
      served.set(model.modelId, list);
    }
    // Each model's providers in the order they were added (rows come ordered by creation): the site's first,
    // then organizations'.
    const order = new Map([...providers.keys()].map((name, index) => [name, index]));
    for (const served of byKind.values()) {
      for (const list of served.values()) {
        list.sort((a, b) => order.get(a.provider.name)! - order.get(b.provider.name)!);
      }
    }
    return {
      providers,
      servedBy: (modelId, kind) => byKind.get(kind)?.get(modelId) ?? [],
      modelsServed: (kind) => byKind.get(kind) ?? new Map(),
      offerOf: (provider, modelId) => offers.get(`${provider}\0${modelId}`),
      hasOrgProviders: orgRows.length > 0,
    };
  }

  function invalidate(): void {
    cached = undefined;
  }

  async function snapshot(): Promise<OwnProvidersSnapshot> {
    const at = now();
    if (cached && cached.expires > at) return cached.snapshot;
    loading ??= load().finally(() => {
      loading = undefined;
    });
    const loaded = await loading;
    cached = { snapshot: loaded, expires: at + OWN_PROVIDERS_TTL_MS };
    return loaded;
  }

  function setHealth(name: string, status: "up" | "down", error: string | null): void {
    const before = health.get(name)?.status;
    health.set(name, { status, checkedAt: new Date().toISOString(), error });
    if (before !== status && before !== undefined) {
      deps.logger.log(status === "up" ? "info" : "warn", `own provider ${status}`, { provider: name, error });
    }
  }

  /**
   * Checks under way, by provider: a provider (as read now: the same settings) is never checked twice at
   * once; a second check joins the first.
   */
  const checksUnderWay = new Map<string, { provider: OwnProvider; path: string; done: Promise<void> }>();

  function checkOne(provider: OwnProvider, path: string): Promise<void> {
    const underWay = checksUnderWay.get(provider.name);
    if (underWay?.provider === provider && underWay.path === path) return underWay.done;
    const done = checkNow(provider, path).finally(() => {
      if (checksUnderWay.get(provider.name)?.done === done) checksUnderWay.delete(provider.name);
    });
    checksUnderWay.set(provider.name, { provider, path, done });
    return done;
  }

  async function checkNow(provider: OwnProvider, path: string): Promise<void> {
    // On the provider's own origin whatever the path says: `//host/x` resolved against the base URL is
    // another host, which would get the provider's key.
    const origin = new URL(provider.upstream.baseUrl).origin;
    const timeout = Math.min(HEALTH_TIMEOUT_MS, provider.timeouts.headersMs);
    try {
      const answer = await provider.dispatcher.request({
        origin,
        path,
        method: "GET",
        headers: provider.upstream.authHeader.value
          ? { authorization: provider.upstream.authHeader.value }
          : {},
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      // The status is the answer; the body is not read: one that never ends (a byte now and then, each within
      // the idle limit) held this check, and so every later one (they join the check under way), forever.
      answer.body.once("error", () => {}).destroy();
      if (answer.statusCode >= 200 && answer.statusCode < 300) setHealth(provider.name, "up", null);
      else setHealth(provider.name, "down", `health check answered ${answer.statusCode}`);
    } catch (error) {
      const code = (error as { code?: string }).code ?? "error";
      setHealth(provider.name, "down", `health check failed (${code})`);
    }
  }

  /** Each organization's last full check: when, and the provider versions (name and change) it covered. */
  const orgChecks = new Map<number, { at: number; done: Promise<void>; versions: Set<string> }>();
  const versionOf = (provider: OwnProvider) => `${provider.name}\0${upstreams.get(provider.name)?.updatedAt}`;

  /**
   * Checks one organization's providers now (its admin's "check now"), and no other's. At most every
   * ORG_CHECK_MIN_INTERVAL_MS per organization: asked sooner, only what its admin added or changed since is
   * checked (the rest keep the check just made).
   */
  function checkOrg(orgId: number): Promise<void> {
    const at = now();
    const last = orgChecks.get(orgId);
    const recent = last !== undefined && at - last.at < ORG_CHECK_MIN_INTERVAL_MS;
    const versions = recent ? last.versions : new Set<string>();
    if (!recent && orgChecks.size > 10_000) orgChecks.clear();
    const done = (async () => {
      if (recent) await last.done;
      else invalidate();
      const { providers } = await snapshot();
      const due = [...providers.values()].filter(
        (provider) => provider.orgId === orgId && !versions.has(versionOf(provider)),
      );
      for (const provider of due) versions.add(versionOf(provider));
      await Promise.all(
        due.map((provider) => {
          const path = healthPaths.get(provider.name);
          return path === undefined ? undefined : checkOne(provider, path);
        }),
      );
    })().catch((error) => {
      deps.logger.log("warn", "own providers health check failed", { error: String(error) });
    });
    orgChecks.set(orgId, recent ? { ...last, done } : { at, done, versions });
    return done;
  }

  /** Checks every provider once (a check already under way is joined). */
  function checkAll(): Promise<void> {
    checking ??= (async () => {
      try {
        // Read afresh: a provider just added is checked too.
        invalidate();
        const { providers } = await snapshot();
        await Promise.all(
          [...providers.values()].map((provider) => {
            const path = healthPaths.get(provider.name);
            return path === undefined ? undefined : checkOne(provider, path);
          }),
        );
      } catch (error) {
        deps.logger.log("warn", "own providers health check failed", { error: String(error) });
      }
    })().finally(() => {
      checking = undefined;
    });
    return checking;
  }

  return {
    snapshot,
    /** Read the tables again on the next call (after a change made in this process). */
    invalidate,
    /** This process's latest view of a provider's health. */
    health(name: string): OwnProviderHealth {
      return (
        unusableKeys.get(name) ?? health.get(name) ?? { status: "unknown", checkedAt: null, error: null }
      );
    },
    /** Whether the selection may use a provider: not known to be down. */
    isUp(name: string): boolean {
      return health.get(name)?.status !== "down";
    },
    /** A call could not reach the provider: skipped from now until a check finds it up. */
    markDown(name: string, reason: string): void {
      setHealth(name, "down", reason);
    },
    checkAll,
    checkOrg,
    /** Checks every provider now and then every `intervalMs`, until stop(). */
    start(intervalMs = DEFAULT_HEALTH_INTERVAL_MS): void {
      if (timer) return;
      void checkAll();
      timer = setInterval(() => void checkAll(), intervalMs);
      timer.unref();
    },
    /** Stops the checks; waits for one under way. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await checking;
    },
  };
}

export type OwnProvidersRegistry = ReturnType<typeof createOwnProvidersRegistry>;

/**
 * The snapshot as one caller sees it: the site's providers and those of the organizations given; every
 * other organization's provider is left out, so that nothing the router answers (errors, `/v1/models`,
 * a named provider) tells it exists.
 */
export function visibleSnapshot(
  snapshot: OwnProvidersSnapshot,
  orgs: ReadonlySet<number>,
): OwnProvidersSnapshot {
  if (!snapshot.hasOrgProviders) return snapshot;
  const visible = (provider: OwnProvider) => provider.orgId === null || orgs.has(provider.orgId);
  const providers = new Map([...snapshot.providers].filter(([, provider]) => visible(provider)));
  return {
    providers,
    servedBy: (modelId, kind) => snapshot.servedBy(modelId, kind).filter((entry) => visible(entry.provider)),
    modelsServed(kind) {
      const served = new Map<string, { provider: OwnProvider; servedName: string }[]>();
      for (const [modelId, list] of snapshot.modelsServed(kind)) {
        const shown = list.filter((entry) => visible(entry.provider));
        if (shown.length > 0) served.set(modelId, shown);
      }
      return served;
    },
    // Hidden only for another organization's provider: hosted and site providers' offers are everyone's.
    offerOf(provider, modelId) {
      const own = snapshot.providers.get(provider);
      return own && !visible(own) ? undefined : snapshot.offerOf(provider, modelId);
    },
    hasOrgProviders: false,
  };
}
