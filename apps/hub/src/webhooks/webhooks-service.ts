import { randomBytes } from "node:crypto";
import { request } from "undici";
import type { Actor } from "../auth/actor.js";
import { AuthenticationRequiredError } from "../auth/auth-errors.js";
import type { Authorizer } from "../auth/authorize.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.js";
import { type Logger, silentLogger } from "../logger.js";
import type { Store } from "../store/store.js";
import type { HubEvent, HubEventRecorder, WebhookScope } from "./hub-events.js";
import { checkTarget, createDeliveryAgent, type TargetPolicy } from "./webhook-target.js";
import type { DeliveryRecord, QueuedEvent, WatchedItem, WebhookRecord } from "./webhooks-table.js";

/**
 * Webhooks as the public hub has them (huggingface_hub's create_webhook and friends, /api/settings/webhooks),
 * and their deliveries: events queued in the transaction that made them (recorder), matched to webhooks and
 * delivered in the background by workers that share the database's queue with every other replica.
 *
 * Delivery: POST of the public hub's payload with `X-Webhook-Secret`, a timeout, no redirects followed. A
 * failed attempt (no 2xx, a timeout, a refused connection) is retried with exponential back-off
 * (`retryBaseMs` × 2^(attempt-1)) up to `maxAttempts`; a webhook whose attempts fail `disableAfterFailures`
 * times in a row is disabled, the reason kept on it for its owner to read (GET answers `disabledReason`).
 */

export const DEFAULT_DELIVERY = {
  /** How often an idle worker looks for due deliveries (what other replicas queued, retries coming due). */
  pollMs: 2000,
  /** First retry after this; each next one waits twice as long. */
  retryBaseMs: 10_000,
  /** Attempts per delivery before it is marked failed. */
  maxAttempts: 6,
  /** Failed attempts in a row after which the webhook is disabled. */
  disableAfterFailures: 20,
  /** Per attempt: connecting, and waiting for the answer. */
  timeoutMs: 10_000,
  /** How long a claimed delivery is a worker's before another replica may take it over. */
  leaseMs: 60_000,
  /** Deliveries in flight per hub. */
  concurrency: 4,
} as const;

export type DeliverySettings = { -readonly [K in keyof typeof DEFAULT_DELIVERY]: number };

const WATCH_TYPES = new Set(["user", "org", "model", "dataset", "space"]);
/** `discussions` is huggingface_hub's spelling; `discussion` the scopes'. */
const DOMAINS: Record<string, "repo" | "discussion"> = {
  repo: "repo",
  discussion: "discussion",
  discussions: "discussion",
};

export interface WebhooksServiceDeps {
  store: Store;
  authorizer: Authorizer;
  publicUrl: string;
  /** WEBHOOK_ALLOW_PRIVATE and the hub's own origins (webhook-target.ts). */
  targets: TargetPolicy;
  delivery?: Partial<DeliverySettings>;
  logger?: Logger;
  now?: () => Date;
}

/** The public hub's id form: 24 hex digits. */
const hexId = (n: number) => n.toString(16).padStart(24, "0");

/** A webhook as the API answers it (huggingface_hub's WebhookInfo, plus what it does not read). */
export function webhookView(webhook: WebhookRecord) {
  return {
    id: webhook.id,
    url: webhook.url,
    watched: webhook.watched,
    domains: webhook.domains,
    secret: webhook.secret ?? null,
    disabled: webhook.disabled,
    disabledReason: webhook.disabledReason ?? null,
    version: webhook.version,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

export function deliveryView(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === "pending" ? delivery.nextAttemptAt : null,
    responseStatus: delivery.responseStatus ?? null,
    error: delivery.lastError ?? null,
    replayOf: delivery.replayOf ?? null,
    createdAt: delivery.createdAt,
    finishedAt: delivery.finishedAt ?? null,
    payload: JSON.parse(delivery.payload) as unknown,
  };
}

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { store, authorizer } = deps;
  const table = store.webhooks;
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? (() => new Date());
  const settings: DeliverySettings = { ...DEFAULT_DELIVERY, ...deps.delivery };
  const publicUrl = deps.publicUrl.replace(/\/+$/, "");

  /**
   * The user whose webhooks the caller manages: webhooks hold a user's rights (they see what the user may
   * read), so managing them is managing the account (a web session or a write token; a read token may not).
   */
  async function ownerOf(actor: Actor): Promise<number> {
    if (actor.kind !== "user") throw new AuthenticationRequiredError("Sign in to manage your webhooks.");
    await authorizer.authorize(actor, "manage", { kind: "user", name: actor.user.name });
    return actor.user.id;
  }

  /** The caller's own webhook; someone else's is "not found", as a missing one. */
  async function own(actor: Actor, id: string): Promise<WebhookRecord> {
    const ownerId = await ownerOf(actor);
    const webhook = await table.get(id);
    if (!webhook || webhook.ownerId !== ownerId) throw new NotFoundError(`Webhook ${id} not found.`);
    return webhook;
  }

  /** Validates the body of a create or update: watched items that exist and the owner may see, domains. */
  async function parseBody(actor: Actor, body: Record<string, unknown>) {
    const url = (await checkTarget(body.url, deps.targets)).toString();
    if (!Array.isArray(body.watched) || body.watched.length === 0) {
      throw new InvalidInputError("watched must list at least one {type, name} to watch.");
    }
    const watched: WatchedItem[] = [];
    for (const item of body.watched as unknown[]) {
      const { type, name } = (item ?? {}) as { type?: unknown; name?: unknown };
      if (typeof type !== "string" || !WATCH_TYPES.has(type) || typeof name !== "string" || !name) {
        throw new InvalidInputError(
          'Each watched item is {"type": "user" | "org" | "model" | "dataset" | "space", "name": "..."}.',
        );
      }
      await assertWatchable(actor, type as WatchedItem["type"], name);
      watched.push({ type: type as WatchedItem["type"], name });
    }
    const rawDomains = body.domains ?? ["repo", "discussion"];
    if (!Array.isArray(rawDomains) || rawDomains.some((d) => typeof d !== "string" || !(d in DOMAINS))) {
      throw new InvalidInputError('domains is a list of "repo" and "discussions".');
    }
    const domains = [...new Set(rawDomains as string[])];
    if (body.secret !== undefined && body.secret !== null && typeof body.secret !== "string") {
      throw new InvalidInputError("secret must be a string.");
    }
    const secret = typeof body.secret === "string" && body.secret !== "" ? body.secret : undefined;
    return { url, watched, domains, secret };
  }

  /** A user or organization that exists, or a repository the caller may read (else not found, alike). */
  async function assertWatchable(actor: Actor, type: WatchedItem["type"], name: string): Promise<void> {
    if (type === "user" || type === "org") {
      const account = await store.accounts.namespace(name);
      if (!account || (account.kind === "user") !== (type === "user")) {
        throw new NotFoundError(`No ${type === "user" ? "user" : "organization"} named ${name}.`);
      }
      return;
    }
    const repo = await store.repos.get(type, name);
    const visible =
      repo !== undefined &&
      (await authorizer.can(actor, "read", {
        kind: "repo",
        type,
        owner: repo.owner,
        name: repo.id.slice(repo.owner.length + 1),
        private: repo.private,
        gated: repo.gated,
        mirrored: repo.mirrorOf !== undefined,
      }));
    if (!visible) throw new NotFoundError(`No ${type} repository ${name} (or you may not read it).`);
  }

  // ---------------------------------------------------------------- events: queued, then fanned out

  const recorder: HubEventRecorder = {
    async record(tx, event) {
      await tx.webhooks.enqueueEvent({
        repoType: event.repo.type,
        repoId: event.repo.id,
        repoOwner: event.repo.owner,
        repoPrivate: event.repo.private,
        scope: event.scope,
        event: JSON.stringify(event),
        now: now().toISOString(),
      });
      // The transaction commits after this returns: look soon (the poll is the fallback).
      setTimeout(wake, 20).unref();
    },
  };

  function wants(webhook: WebhookRecord, scope: string): boolean {
    const domain = scope.startsWith("discussion") ? "discussion" : "repo";
    return webhook.domains.some((d) => DOMAINS[d] === domain);
  }

  /** May the webhook's owner read the private repository (their roles now, not when it was created)? */
  async function ownerMayRead(webhook: WebhookRecord, event: HubEvent): Promise<boolean> {
    const user = await store.accounts.users.byId(webhook.ownerId);
    if (!user || user.disabled) return false;
    const memberships = await store.accounts.orgs.membershipsOf(user.id);
    // As a signed-in user: everything the user may do (a webhook holds no token to narrow it).
    const actor: Actor = {
      kind: "user",
      user,
      memberships,
      credential: { kind: "session", idHash: "", csrfToken: "" },
    };
    return authorizer.can(actor, "read", {
      kind: "repo",
      type: event.repo.type,
      owner: event.repo.owner,
      name: event.repo.id.slice(event.repo.owner.length + 1),
      private: true,
      gated: false,
    });
  }

  async function accountId(name: string): Promise<string | undefined> {
    const account = await store.accounts.namespace(name);
    return account ? hexId(account.id) : undefined;
  }

  /** The public hub's payload for one webhook. */
  async function payloadOf(event: HubEvent): Promise<Record<string, unknown>> {
    const repo = event.repo;
    const web = `${publicUrl}/${repo.type === "model" ? "" : `${repo.type}s/`}${repo.id}`;
    const payload: Record<string, unknown> = {
      event: { action: event.action, scope: event.scope },
      repo: {
        type: repo.type,
        name: repo.id,
        id: hexId(repo.key),
        private: repo.private,
        url: { web, api: `${publicUrl}/api/${repo.type}s/${repo.id}` },
        ...(repo.headSha ? { headSha: repo.headSha } : {}),
        owner: { id: (await accountId(repo.owner)) ?? null },
      },
    };
    if (event.updatedRefs) payload.updatedRefs = event.updatedRefs;
    if (event.updatedConfig) payload.updatedConfig = event.updatedConfig;
    if (event.discussion) {
      const d = event.discussion;
      const discussionWeb = `${web}/discussions/${d.num}`;
      payload.discussion = {
        id: `${hexId(repo.key).slice(12)}${d.num.toString(16).padStart(12, "0")}`,
        title: d.title,
        url: {
          web: discussionWeb,
          api: `${publicUrl}/api/${repo.type}s/${repo.id}/discussions/${d.num}`,
        },
        status: d.status,
        author: { id: (await accountId(d.author)) ?? null, name: d.author },
        num: d.num,
        isPullRequest: d.isPullRequest,
        ...(d.base ? { changes: { base: d.base } } : {}),
      };
      if (event.comment) {
        const c = event.comment;
        payload.comment = {
          id: c.id,
          author: { id: (await accountId(c.author)) ?? null, name: c.author },
          content: c.content,
          hidden: c.hidden,
          url: { web: `${discussionWeb}#${c.id}` },
        };
      }
    }
    return payload;
  }

  /** Matches one queued event to its webhooks and queues a delivery to each, once across replicas. */
  async function fanOut(queued: QueuedEvent): Promise<void> {
    const event = JSON.parse(queued.event) as HubEvent;
    const matching: WebhookRecord[] = [];
    for (const webhook of await table.watching({
      type: queued.repoType,
      id: queued.repoId,
      owner: queued.repoOwner,
    })) {
      // A webhook hears of what happened once it existed, not of what was still queued when it was made.
      if (webhook.createdAt > queued.createdAt || !wants(webhook, queued.scope)) continue;
      if (queued.repoPrivate && !(await ownerMayRead(webhook, event))) continue;
      matching.push(webhook);
    }
    const payload = matching.length > 0 ? await payloadOf(event) : {};
    const stamp = now().toISOString();
    await store.transaction(async (tx) => {
      // Deleting the event is the claim: of two replicas, one deletes it and queues its deliveries.
      if (!(await tx.webhooks.takeEvent(queued.id))) return;
      for (const webhook of matching) {
        await tx.webhooks.insertDelivery({
          webhookId: webhook.id,
          payload: JSON.stringify({ ...payload, webhook: { id: webhook.id, version: webhook.version } }),
          now: stamp,
        });
      }
    });
  }

  // ---------------------------------------------------------------- delivery workers

  const agent = createDeliveryAgent(deps.targets, settings.timeoutMs);
  const workerId = `${process.pid}-${randomBytes(6).toString("hex")}`;
  let running = false;
  let loops: Promise<void>[] = [];
  let sleepers: (() => void)[] = [];

  function wake(): void {
    const waiting = sleepers;
    sleepers = [];
    for (const resume of waiting) resume();
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sleepers = sleepers.filter((s) => s !== done);
        resolve();
      }, ms);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      sleepers.push(done);
    });
  }

  /** One attempt at one delivery: the outcome is recorded, and the webhook disabled when it keeps failing. */
  async function attempt(delivery: DeliveryRecord): Promise<void> {
    const webhook = await table.get(delivery.webhookId);
    if (!webhook) return;
    let responseStatus: number | undefined;
    let error: string | undefined;
    try {
      const target = await checkTarget(webhook.url, deps.targets);
      const answer = await request(target, {
        method: "POST",
        dispatcher: agent,
        headers: {
          "content-type": "application/json",
          "user-agent": "modelhub-webhooks/1",
          ...(webhook.secret ? { "x-webhook-secret": webhook.secret } : {}),
        },
        body: delivery.payload,
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
      });
      responseStatus = answer.statusCode;
      await answer.body.dump().catch(() => {});
      if (responseStatus < 200 || responseStatus >= 300) {
        error =
          responseStatus >= 300 && responseStatus < 400
            ? `HTTP ${responseStatus}: redirects are not followed`
            : `HTTP ${responseStatus}`;
      }
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
    const at = now();
    if (error === undefined) {
      await table.finishAttempt(delivery.id, workerId, {
        status: "delivered",
        responseStatus,
        error: undefined,
        nextAttemptAt: at.toISOString(),
        now: at.toISOString(),
      });
      await table.resetFailures(webhook.id);
      return;
    }
    const exhausted = delivery.attempts >= settings.maxAttempts;
    const retryAt = new Date(at.getTime() + settings.retryBaseMs * 2 ** (delivery.attempts - 1));
    const kept = await table.finishAttempt(delivery.id, workerId, {
      status: exhausted ? "failed" : "pending",
      responseStatus,
      error,
      nextAttemptAt: retryAt.toISOString(),
      now: at.toISOString(),
    });
    if (!kept) return;
    const failures = await table.countFailure(webhook.id);
    if (failures >= settings.disableAfterFailures) {
      const reason = `Disabled after ${failures} failed deliveries in a row (last: ${error}). Fix the receiver, then enable the webhook again.`;
      await table.setDisabled(webhook.id, true, reason, at.toISOString());
      logger.log("warn", "webhook disabled", { webhook: webhook.id, failures, error });
    }
  }

  /** Fans out what is queued (one pass at a time in this process: the workers share it). */
  let fanning: Promise<boolean> | undefined;
  function fanOutQueued(): Promise<boolean> {
    fanning ??= (async () => {
      let worked = false;
      try {
        for (const queued of await table.queuedEvents(50)) {
          await fanOut(queued);
          worked = true;
        }
      } finally {
        fanning = undefined;
      }
      return worked;
    })();
    return fanning;
  }

  /** Fans out what is queued, then makes one delivery attempt; false when there was nothing to do. */
  async function step(): Promise<boolean> {
    const worked = await fanOutQueued();
    const at = now();
    const delivery = await table.claimDelivery(
      workerId,
      at.toISOString(),
      new Date(at.getTime() + settings.leaseMs).toISOString(),
    );
    if (!delivery) return worked;
    await attempt(delivery);
    return true;
  }

  async function loop(): Promise<void> {
    while (running) {
      let worked = false;
      try {
        worked = await step();
      } catch (error) {
        logger.log("error", "webhook delivery step failed", { error: String(error) });
      }
      if (!worked && running) await sleep(settings.pollMs);
    }
  }

  return {
    recorder,

    async list(actor: Actor) {
      const ownerId = await ownerOf(actor);
      return (await table.listByOwner(ownerId)).map(webhookView);
    },

    async get(actor: Actor, id: string) {
      return webhookView(await own(actor, id));
    },

    async create(actor: Actor, body: Record<string, unknown>) {
      const ownerId = await ownerOf(actor);
      if (body.jobSourceId !== undefined) {
        throw new InvalidInputError("This hub runs no Jobs: give the webhook a url.");
      }
      const parsed = await parseBody(actor, body);
      const id = randomBytes(12).toString("hex");
      await table.insert({ id, ownerId, ...parsed, now: now().toISOString() });
      return webhookView((await table.get(id))!);
    },

    async update(actor: Actor, id: string, body: Record<string, unknown>) {
      const current = await own(actor, id);
      const parsed = await parseBody(actor, {
        url: body.url ?? current.url,
        watched: body.watched ?? current.watched,
        domains: body.domains ?? current.domains,
        secret: body.secret === undefined ? current.secret : body.secret,
      });
      await table.update(id, parsed, now().toISOString());
      return webhookView((await table.get(id))!);
    },

    async setEnabled(actor: Actor, id: string, enabled: boolean) {
      await own(actor, id);
      await table.setDisabled(
        id,
        !enabled,
        enabled ? undefined : "Disabled by its owner.",
        now().toISOString(),
      );
      if (enabled) wake();
      return webhookView((await table.get(id))!);
    },

    async delete(actor: Actor, id: string): Promise<void> {
      await own(actor, id);
      await table.delete(id);
    },

    async deliveries(actor: Actor, id: string, limit = 100) {
      await own(actor, id);
      return (await table.deliveries(id, Math.min(Math.max(limit, 1), 1000))).map(deliveryView);
    },

    /** Sends a logged delivery's payload again, as a new delivery (its own attempts and log line). */
    async replay(actor: Actor, id: string, deliveryId: number) {
      await own(actor, id);
      const original = await table.delivery(deliveryId);
      if (!original || original.webhookId !== id) {
        throw new NotFoundError(`Delivery ${deliveryId} of webhook ${id} not found.`);
      }
      const replayed = await table.insertDelivery({
        webhookId: id,
        payload: original.payload,
        replayOf: original.id,
        now: now().toISOString(),
      });
      wake();
      return deliveryView((await table.delivery(replayed))!);
    },

    /**
     * "Send a test event": queues a real delivery (same queue, retries and log as any other) of a payload
     * that names no repository, so it tells the receiver nothing its owner did not write in the webhook:
     * `event {action: "test", scope: "webhook"}`, the webhook's `watched` and `domains`, and `webhook`.
     */
    async sendTest(actor: Actor, id: string) {
      const webhook = await own(actor, id);
      if (webhook.disabled) {
        throw new ConflictError(`Webhook ${id} is disabled: enable it, then send the test event again.`);
      }
      const payload = {
        event: { action: "test", scope: "webhook" },
        watched: webhook.watched,
        domains: webhook.domains,
        webhook: { id: webhook.id, version: webhook.version },
      };
      const queued = await table.insertDelivery({
        webhookId: id,
        payload: JSON.stringify(payload),
        now: now().toISOString(),
      });
      wake();
      return deliveryView((await table.delivery(queued))!);
    },

    /** Starts the delivery workers (resuming what this or another replica left: leases expire). */
    start(): void {
      if (running) return;
      running = true;
      loops = Array.from({ length: settings.concurrency }, () => loop());
    },

    /** Stops the workers after the attempts under way; what is left stays queued for the next start. */
    async stop(): Promise<void> {
      running = false;
      wake();
      await Promise.all(loops);
      loops = [];
      await agent.close();
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
export type { WebhookScope };
