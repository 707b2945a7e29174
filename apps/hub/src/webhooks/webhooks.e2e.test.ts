import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { type Receiver, startReceiver } from "./__fixtures__/webhook-receiver.js";

/**
 * Webhooks end to end on one hub whose receivers are on loopback (so WEBHOOK_ALLOW_PRIVATE is on): the
 * public hub's payloads for each kind of event, retries, the delivery log and replay, disabling, and who
 * is told of a private repository. Back-off and polling are shortened; nothing here sleeps on the clock.
 */
const DISABLE_AFTER = 6;
const hub = useTestHub({
  webhooks: {
    allowPrivate: true,
    workers: true,
    delivery: { pollMs: 50, retryBaseMs: 40, maxAttempts: 5, disableAfterFailures: DISABLE_AFTER },
  },
});
let alice: string;
let bob: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  bob = await userToken(hub.store, "bob");
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

async function call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${hub.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function json(token: string, method: string, path: string, body?: unknown) {
  const response = await call(token, method, path, body);
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  return JSON.parse(text) as any;
}

async function createRepo(token: string, name: string, isPrivate = false): Promise<void> {
  await json(token, "POST", "/api/repos/create", { type: "model", name, private: isPrivate });
}

async function commit(token: string, id: string, path: string): Promise<string> {
  const lines = [
    { key: "header", value: { summary: `add ${path}` } },
    { key: "file", value: { path, content: Buffer.from(path).toString("base64"), encoding: "base64" } },
  ];
  const response = await fetch(`${hub.url}/api/models/${id}/commit/main`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  const answer = (await response.json()) as { commitOid: string };
  expect(response.status).toBe(200);
  return answer.commitOid;
}

async function createWebhook(token: string, body: Record<string, unknown>) {
  return (await json(token, "POST", "/api/settings/webhooks", body)).webhook as {
    id: string;
    version: number;
  };
}

describe("webhook deliveries", () => {
  it("sends the public hub's payload for a commit, a branch, a visibility change, a pull request and a comment", async () => {
    await createRepo(alice, "hooked");
    const target = await receiver();
    const webhook = await createWebhook(alice, {
      watched: [{ type: "model", name: "alice/hooked" }],
      url: target.url,
      domains: ["repo", "discussions"],
      secret: "s3cret",
    });
    const seen = () => target.received.length;
    const next = async () => {
      const before = seen();
      await target.waitFor((all) => all.length > before);
      return target.received[before]!;
    };

    const waitingCommit = next();
    const oid = await commit(alice, "alice/hooked", "weights.txt");
    const committed = await waitingCommit;
    expect(committed.headers["x-webhook-secret"]).toBe("s3cret");
    expect(committed.headers["content-type"]).toBe("application/json");
    expect(committed.body).toMatchObject({
      event: { action: "update", scope: "repo.content" },
      repo: {
        type: "model",
        name: "alice/hooked",
        private: false,
        headSha: oid,
        url: { web: `${hub.publicUrl}/alice/hooked`, api: `${hub.publicUrl}/api/models/alice/hooked` },
      },
      updatedRefs: [{ ref: "refs/heads/main", newSha: oid }],
      webhook: { id: webhook.id, version: webhook.version },
    });
    expect(committed.body.repo.id).toMatch(/^[0-9a-f]{24}$/);
    expect(committed.body.repo.owner.id).toMatch(/^[0-9a-f]{24}$/);
    expect(committed.body.updatedRefs[0].oldSha).toMatch(/^[0-9a-f]{40}$/);

    const waitingBranch = next();
    await json(alice, "POST", "/api/models/alice/hooked/branch/dev");
    expect((await waitingBranch).body).toMatchObject({
      event: { action: "update", scope: "repo.content" },
      updatedRefs: [{ ref: "refs/heads/dev", oldSha: null, newSha: oid }],
    });

    const waitingVisibility = next();
    await json(alice, "PUT", "/api/models/alice/hooked/settings", { private: true });
    expect((await waitingVisibility).body).toMatchObject({
      event: { action: "update", scope: "repo.config" },
      repo: { private: true },
      updatedConfig: { private: true },
    });

    const waitingPr = next();
    const pr = await json(alice, "POST", "/api/models/alice/hooked/discussions", {
      title: "Better weights",
      pullRequest: true,
    });
    expect((await waitingPr).body).toMatchObject({
      event: { action: "create", scope: "discussion" },
      discussion: {
        num: pr.num,
        title: "Better weights",
        isPullRequest: true,
        url: { web: `${hub.publicUrl}/alice/hooked/discussions/${pr.num}` },
      },
    });

    const waitingComment = next();
    await json(alice, "POST", `/api/models/alice/hooked/discussions/${pr.num}/comment`, { comment: "LGTM" });
    const comment = (await waitingComment).body;
    expect(comment).toMatchObject({
      event: { action: "create", scope: "discussion.comment" },
      discussion: { num: pr.num, isPullRequest: true },
      comment: { content: "LGTM", hidden: false },
    });
    expect(comment.comment.id).toMatch(/^[0-9a-f]{24}$/);
    // One delivery per event, each logged as delivered on its first attempt.
    const log = (await json(alice, "GET", `/api/settings/webhooks/${webhook.id}/deliveries`)).deliveries;
    expect(log).toHaveLength(5);
    expect(
      log.every((d: { status: string; attempts: number }) => d.status === "delivered" && d.attempts === 1),
    ).toBe(true);
  });

  it("retries a receiver that fails three times, then delivers exactly once more; a replay sends it again", async () => {
    await createRepo(alice, "flaky");
    const target = await receiver();
    const webhook = await createWebhook(alice, {
      watched: [{ type: "model", name: "alice/flaky" }],
      url: target.url,
    });
    target.failNext(3);
    const first = await commit(alice, "alice/flaky", "a.txt");
    await target.waitFor((all) => all.some((r) => r.answered === 200));
    expect(target.received.map((r) => r.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(target.received.map((r) => JSON.stringify(r.body))).size).toBe(1);
    // A later event is the next request: the delivered one was not sent again.
    const second = await commit(alice, "alice/flaky", "b.txt");
    await target.waitFor((all) => all.length >= 5);
    expect(target.received[4]!.body.updatedRefs[0].newSha).toBe(second);

    const log = (await json(alice, "GET", `/api/settings/webhooks/${webhook.id}/deliveries`)).deliveries;
    const retried = log.find(
      (d: { payload: { repo: { headSha: string } } }) => d.payload.repo.headSha === first,
    );
    expect(retried).toMatchObject({ status: "delivered", attempts: 4, responseStatus: 200 });

    const replay = await json(
      alice,
      "POST",
      `/api/settings/webhooks/${webhook.id}/deliveries/${retried.id}/replay`,
    );
    expect(replay.delivery.replayOf).toBe(retried.id);
    await target.waitFor((all) => all.length >= 6);
    expect(target.received[5]!.body).toEqual(target.received[3]!.body);
  });

  it(`disables a webhook after ${DISABLE_AFTER} failed attempts in a row and says why`, async () => {
    await createRepo(alice, "broken");
    const target = await receiver();
    const webhook = await createWebhook(alice, {
      watched: [{ type: "model", name: "alice/broken" }],
      url: target.url,
    });
    target.failNext(1000);
    await commit(alice, "alice/broken", "a.txt");
    await commit(alice, "alice/broken", "b.txt");
    const deadline = Date.now() + 20_000;
    let info = (await json(alice, "GET", `/api/settings/webhooks/${webhook.id}`)).webhook;
    while (!info.disabled && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      info = (await json(alice, "GET", `/api/settings/webhooks/${webhook.id}`)).webhook;
    }
    expect(info.disabled).toBe(true);
    // Two deliveries fail side by side: the count may pass the threshold by the attempt under way.
    const failures = Number(/Disabled after (\d+) failed deliveries in a row/.exec(info.disabledReason)?.[1]);
    expect(failures).toBeGreaterThanOrEqual(DISABLE_AFTER);
    expect(info.disabledReason).toContain("HTTP 500");
    expect(target.received.length).toBeGreaterThanOrEqual(DISABLE_AFTER);
    // Enabled again (fixed receiver): what was still pending is delivered.
    target.failNext(0);
    await json(alice, "POST", `/api/settings/webhooks/${webhook.id}/enable`);
    await target.waitFor((all) => all.some((r) => r.answered === 200));
  });
});

describe("who is told", () => {
  it("tells a watcher of a user only of the repositories the watcher may read", async () => {
    await createRepo(alice, "secret-plans", true);
    await createRepo(alice, "open-plans");
    const target = await receiver();
    await createWebhook(bob, {
      watched: [{ type: "user", name: "alice" }],
      url: target.url,
      domains: ["repo"],
    });
    // Queued in this order: the private commit is matched (and skipped) before the public one is sent.
    await commit(alice, "alice/secret-plans", "a.txt");
    await commit(alice, "alice/open-plans", "a.txt");
    await target.waitFor((all) => all.length >= 1);
    expect(target.received.map((r) => r.body.repo.name)).toEqual(["alice/open-plans"]);
  });

  it("refuses a webhook on a private repository its owner cannot read, as if it did not exist", async () => {
    const response = await call(bob, "POST", "/api/settings/webhooks", {
      watched: [{ type: "model", name: "alice/secret-plans" }],
      url: "http://127.0.0.1:9/hook",
    });
    expect(response.status).toBe(404);
    const missing = await call(bob, "POST", "/api/settings/webhooks", {
      watched: [{ type: "model", name: "alice/no-such-repo" }],
      url: "http://127.0.0.1:9/hook",
    });
    expect(missing.status).toBe(404);
    const refused = (await response.json()) as { error: string };
    const absent = (await missing.json()) as { error: string };
    expect(refused.error).toBe(absent.error.replace("no-such-repo", "secret-plans"));
  });

  it("sends a test event as a real delivery, logged; refuses it while the webhook is disabled", async () => {
    const target = await receiver();
    const webhook = await createWebhook(alice, {
      watched: [{ type: "user", name: "alice" }],
      url: target.url,
      secret: "test-secret",
    });
    const queued = (await json(alice, "POST", `/api/settings/webhooks/${webhook.id}/test`)).delivery;
    expect(queued).toMatchObject({ status: "pending", replayOf: null });
    await target.waitFor((all) => all.length === 1);
    const received = target.received[0]!;
    expect(received.headers["x-webhook-secret"]).toBe("test-secret");
    expect(received.body).toEqual({
      event: { action: "test", scope: "webhook" },
      watched: [{ type: "user", name: "alice" }],
      domains: ["repo", "discussion"],
      webhook: { id: webhook.id, version: webhook.version },
    });
    let log = (await json(alice, "GET", `/api/settings/webhooks/${webhook.id}/deliveries`)).deliveries;
    for (let i = 0; i < 100 && log[0]?.status !== "delivered"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      log = (await json(alice, "GET", `/api/settings/webhooks/${webhook.id}/deliveries`)).deliveries;
    }
    expect(log).toEqual([
      expect.objectContaining({ id: queued.id, status: "delivered", responseStatus: 200 }),
    ]);

    await json(alice, "POST", `/api/settings/webhooks/${webhook.id}/disable`);
    const refused = await call(alice, "POST", `/api/settings/webhooks/${webhook.id}/test`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/disabled: enable it/);
  });

  it("keeps someone else's webhook out of reach: read, change, disable, delete, test, its log all answer 404", async () => {
    const mine = await createWebhook(alice, {
      watched: [{ type: "user", name: "alice" }],
      url: "http://127.0.0.1:9/hook",
      secret: "alice-only",
    });
    for (const [method, path, body] of [
      ["GET", `/api/settings/webhooks/${mine.id}`],
      ["POST", `/api/settings/webhooks/${mine.id}`, { url: "http://127.0.0.1:10/steal" }],
      ["POST", `/api/settings/webhooks/${mine.id}/disable`],
      ["GET", `/api/settings/webhooks/${mine.id}/deliveries`],
      ["POST", `/api/settings/webhooks/${mine.id}/test`],
      ["DELETE", `/api/settings/webhooks/${mine.id}`],
    ] as const) {
      expect((await call(bob, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    const listed = await json(bob, "GET", "/api/settings/webhooks");
    expect(listed.map((w: { id: string }) => w.id)).not.toContain(mine.id);
    expect((await json(alice, "GET", `/api/settings/webhooks/${mine.id}`)).webhook).toMatchObject({
      url: "http://127.0.0.1:9/hook",
      secret: "alice-only",
      disabled: false,
    });
    expect((await fetch(`${hub.url}/api/settings/webhooks`)).status).toBe(401);
  });
});
