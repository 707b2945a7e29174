import type { Queryable } from "../store/database.js";

/** The webhooks' rows (migration 26: webhooks-migration.ts). */

export interface WatchedItem {
  type: "user" | "org" | "model" | "dataset" | "space";
  name: string;
}

export interface WebhookRecord {
  /** 24 hex digits, as the public hub's ids. */
  id: string;
  ownerId: number;
  url: string;
  secret: string | undefined;
  domains: string[];
  watched: WatchedItem[];
  disabled: boolean;
  disabledReason: string | undefined;
  consecutiveFailures: number;
  /** Goes up on every change; the payload's `webhook.version`. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

interface WebhookRow {
  id: string;
  owner_id: number | string;
  url: string;
  secret: string | null;
  domains: string;
  watched: string;
  disabled: number | string;
  disabled_reason: string | null;
  consecutive_failures: number | string;
  version: number | string;
  created_at: string;
  updated_at: string;
}

const webhookFromRow = (row: WebhookRow): WebhookRecord => ({
  id: row.id,
  ownerId: Number(row.owner_id),
  url: row.url,
  secret: row.secret ?? undefined,
  domains: JSON.parse(row.domains) as string[],
  watched: JSON.parse(row.watched) as WatchedItem[],
  disabled: Number(row.disabled) === 1,
  disabledReason: row.disabled_reason ?? undefined,
  consecutiveFailures: Number(row.consecutive_failures),
  version: Number(row.version),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export type DeliveryStatus = "pending" | "delivering" | "delivered" | "failed";

export interface DeliveryRecord {
  id: number;
  webhookId: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string;
  responseStatus: number | undefined;
  lastError: string | undefined;
  replayOf: number | undefined;
  createdAt: string;
  finishedAt: string | undefined;
}

interface DeliveryRow {
  id: number | string;
  webhook_id: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number | string;
  next_attempt_at: string;
  response_status: number | string | null;
  last_error: string | null;
  replay_of: number | string | null;
  created_at: string;
  finished_at: string | null;
}

const deliveryFromRow = (row: DeliveryRow): DeliveryRecord => ({
  id: Number(row.id),
  webhookId: row.webhook_id,
  payload: row.payload,
  status: row.status,
  attempts: Number(row.attempts),
  nextAttemptAt: row.next_attempt_at,
  responseStatus: row.response_status === null ? undefined : Number(row.response_status),
  lastError: row.last_error ?? undefined,
  replayOf: row.replay_of === null ? undefined : Number(row.replay_of),
  createdAt: row.created_at,
  finishedAt: row.finished_at ?? undefined,
});

/** An event waiting to be matched to webhooks. */
export interface QueuedEvent {
  id: number;
  repoType: string;
  repoId: string;
  repoOwner: string;
  repoPrivate: boolean;
  scope: string;
  /** The HubEvent, as JSON. */
  event: string;
  createdAt: string;
}

const WEBHOOK_COLUMNS =
  "id, owner_id, url, secret, domains, watched, disabled, disabled_reason, consecutive_failures, version, created_at, updated_at";
const DELIVERY_COLUMNS =
  "id, webhook_id, payload, status, attempts, next_attempt_at, response_status, last_error, replay_of, created_at, finished_at";

export function createWebhooksTable(q: Queryable) {
  async function setWatches(id: string, watched: readonly WatchedItem[]): Promise<void> {
    await q.run("DELETE FROM webhook_watches WHERE webhook_id = ?", [id]);
    const unique = new Map(watched.map((item) => [`${item.type}\n${item.name.toLowerCase()}`, item]));
    for (const item of unique.values()) {
      await q.run("INSERT INTO webhook_watches (webhook_id, kind, name) VALUES (?, ?, ?)", [
        id,
        item.type,
        item.name.toLowerCase(),
      ]);
    }
  }

  return {
    async insert(webhook: {
      id: string;
      ownerId: number;
      url: string;
      secret: string | undefined;
      domains: string[];
      watched: WatchedItem[];
      now: string;
    }): Promise<void> {
      await q.run(
        `INSERT INTO webhooks (id, owner_id, url, secret, domains, watched, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          webhook.id,
          webhook.ownerId,
          webhook.url,
          webhook.secret ?? null,
          JSON.stringify(webhook.domains),
          JSON.stringify(webhook.watched),
          webhook.now,
          webhook.now,
        ],
      );
      await setWatches(webhook.id, webhook.watched);
    },

    async get(id: string): Promise<WebhookRecord | undefined> {
      const row = await q.get<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`, [id]);
      return row ? webhookFromRow(row) : undefined;
    },

    async listByOwner(ownerId: number): Promise<WebhookRecord[]> {
      const rows = await q.all<WebhookRow>(
        `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE owner_id = ? ORDER BY created_at, id`,
        [ownerId],
      );
      return rows.map(webhookFromRow);
    },

    /** Replaces what a webhook watches and where it posts; its version goes up. */
    async update(
      id: string,
      changes: { url: string; secret: string | undefined; domains: string[]; watched: WatchedItem[] },
      now: string,
    ): Promise<void> {
      await q.run(
        `UPDATE webhooks SET url = ?, secret = ?, domains = ?, watched = ?, version = version + 1, updated_at = ?
         WHERE id = ?`,
        [
          changes.url,
          changes.secret ?? null,
          JSON.stringify(changes.domains),
          JSON.stringify(changes.watched),
          now,
          id,
        ],
      );
      await setWatches(id, changes.watched);
    },

    /** Disables (with the reason shown to its owner) or enables it; enabling forgets the failures. */
    async setDisabled(id: string, disabled: boolean, reason: string | undefined, now: string): Promise<void> {
      await q.run(
        `UPDATE webhooks SET disabled = ?, disabled_reason = ?, updated_at = ?,
           consecutive_failures = CASE WHEN ? = 1 THEN consecutive_failures ELSE 0 END
         WHERE id = ?`,
        [disabled ? 1 : 0, disabled ? (reason ?? null) : null, now, disabled ? 1 : 0, id],
      );
    },

    async delete(id: string): Promise<boolean> {
      await q.run("DELETE FROM webhook_deliveries WHERE webhook_id = ?", [id]);
      await q.run("DELETE FROM webhook_watches WHERE webhook_id = ?", [id]);
      return (await q.run("DELETE FROM webhooks WHERE id = ?", [id])) === 1;
    },

    /** Enabled webhooks watching the repository, its owner (user or organization), or both: each once. */
    async watching(repo: { type: string; id: string; owner: string }): Promise<WebhookRecord[]> {
      const rows = await q.all<WebhookRow>(
        `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE disabled = 0 AND id IN (
           SELECT webhook_id FROM webhook_watches
           WHERE (kind IN ('user', 'org') AND name = ?) OR (kind = ? AND name = ?))
         ORDER BY id`,
        [repo.owner.toLowerCase(), repo.type, repo.id.toLowerCase()],
      );
      return rows.map(webhookFromRow);
    },

    async enqueueEvent(event: {
      repoType: string;
      repoId: string;
      repoOwner: string;
      repoPrivate: boolean;
      scope: string;
      event: string;
      now: string;
    }): Promise<void> {
      await q.run(
        `INSERT INTO webhook_events (repo_type, repo_id, repo_owner, repo_private, scope, event, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [
          event.repoType,
          event.repoId,
          event.repoOwner,
          event.repoPrivate ? 1 : 0,
          event.scope,
          event.event,
          event.now,
        ],
      );
    },

    /** The oldest events waiting to be fanned out. */
    async queuedEvents(limit: number): Promise<QueuedEvent[]> {
      const rows = await q.all<{
        id: number | string;
        repo_type: string;
        repo_id: string;
        repo_owner: string;
        repo_private: number | string;
        scope: string;
        event: string;
        created_at: string;
      }>(
        "SELECT id, repo_type, repo_id, repo_owner, repo_private, scope, event, created_at FROM webhook_events ORDER BY id LIMIT ?",
        [limit],
      );
      return rows.map((row) => ({
        id: Number(row.id),
        repoType: row.repo_type,
        repoId: row.repo_id,
        repoOwner: row.repo_owner,
        repoPrivate: Number(row.repo_private) === 1,
        scope: row.scope,
        event: row.event,
        createdAt: row.created_at,
      }));
    },

    /** Takes an event off the queue: true for exactly one of the replicas racing for it. */
    async takeEvent(id: number): Promise<boolean> {
      return (await q.run("DELETE FROM webhook_events WHERE id = ?", [id])) === 1;
    },

    async insertDelivery(delivery: {
      webhookId: string;
      payload: string;
      replayOf?: number;
      now: string;
    }): Promise<number> {
      const row = await q.get<{ id: number | string }>(
        `INSERT INTO webhook_deliveries (webhook_id, payload, status, next_attempt_at, replay_of, created_at)
         VALUES (?, ?, 'pending', ?, ?, ?) RETURNING id`,
        [delivery.webhookId, delivery.payload, delivery.now, delivery.replayOf ?? null, delivery.now],
      );
      return Number(row!.id);
    },

    async delivery(id: number): Promise<DeliveryRecord | undefined> {
      const row = await q.get<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`,
        [id],
      );
      return row ? deliveryFromRow(row) : undefined;
    },

    /** A webhook's delivery log, newest first. */
    async deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]> {
      const rows = await q.all<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?`,
        [webhookId, limit],
      );
      return rows.map(deliveryFromRow);
    },

    /**
     * Claims one due delivery of an enabled webhook for `worker` until `leaseUntil`: a pending one whose time
     * has come, or one whose worker's lease expired (a replica that died mid-delivery). The UPDATE re-checks
     * what it read, so of two replicas racing for one row exactly one gets it (as scan-table.ts claim()).
     */
    async claimDelivery(
      worker: string,
      now: string,
      leaseUntil: string,
    ): Promise<DeliveryRecord | undefined> {
      for (let round = 0; round < 5; round++) {
        const candidates = await q.all<{ id: number | string; status: string; lease_until: string | null }>(
          `SELECT d.id, d.status, d.lease_until FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE w.disabled = 0 AND ((d.status = 'pending' AND d.next_attempt_at <= ?)
             OR (d.status = 'delivering' AND d.lease_until < ?))
           ORDER BY d.next_attempt_at, d.id LIMIT 8`,
          [now, now],
        );
        if (candidates.length === 0) return undefined;
        for (const candidate of candidates) {
          const changed = await q.run(
            `UPDATE webhook_deliveries SET status = 'delivering', claimed_by = ?, lease_until = ?,
               attempts = attempts + 1
             WHERE id = ? AND status = ? AND coalesce(lease_until, '') = ?`,
            [worker, leaseUntil, candidate.id, candidate.status, candidate.lease_until ?? ""],
          );
          if (changed === 1) return this.delivery(Number(candidate.id));
        }
      }
      return undefined;
    },

    /** Records the outcome of an attempt `worker` made; false when another worker took the row over. */
    async finishAttempt(
      id: number,
      worker: string,
      outcome: {
        status: "delivered" | "pending" | "failed";
        responseStatus: number | undefined;
        error: string | undefined;
        nextAttemptAt: string;
        now: string;
      },
    ): Promise<boolean> {
      return (
        (await q.run(
          `UPDATE webhook_deliveries SET status = ?, response_status = ?, last_error = ?, next_attempt_at = ?,
             finished_at = ?, claimed_by = NULL, lease_until = NULL
           WHERE id = ? AND status = 'delivering' AND claimed_by = ?`,
          [
            outcome.status,
            outcome.responseStatus ?? null,
            outcome.error ?? null,
            outcome.nextAttemptAt,
            outcome.status === "pending" ? null : outcome.now,
            id,
            worker,
          ],
        )) === 1
      );
    },

    /** Counts a failed attempt against the webhook; returns the failures in a row. */
    async countFailure(id: string): Promise<number> {
      await q.run("UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = ?", [id]);
      const row = await q.get<{ n: number | string }>(
        "SELECT consecutive_failures AS n FROM webhooks WHERE id = ?",
        [id],
      );
      return Number(row?.n ?? 0);
    },

    async resetFailures(id: string): Promise<void> {
      await q.run("UPDATE webhooks SET consecutive_failures = 0 WHERE id = ? AND consecutive_failures <> 0", [
        id,
      ]);
    },
  };
}

export type WebhooksTable = ReturnType<typeof createWebhooksTable>;
