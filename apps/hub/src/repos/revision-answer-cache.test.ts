import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoApp } from "../__fixtures__/repo-app.js";
import { matchesIfNoneMatch, RevisionAnswerCache } from "./revision-answer-cache.js";

/**
 * Repository info computed once per revision and kept (docs/decisions/revision-answer-cache.md): the kept
 * answer is the same bytes with the same ETag until an input changes, and any input that changes, with a
 * commit (the files, the sha) or without one (the catalogue record, mappings, settings), gives a new answer.
 * Authorization still runs on every request: a kept answer never reaches a caller who may not read it.
 */

describe("RevisionAnswerCache", () => {
  it("keeps answers within its byte bound, least recently used out first", () => {
    // Each entry: key "k1" (2 chars) + 10-char body = 24 bytes counted.
    const cache = new RevisionAnswerCache(60);
    cache.set("k1", "0123456789");
    cache.set("k2", "0123456789");
    expect(cache.get("k1")?.body).toBe("0123456789"); // k1 is now the most recently used
    cache.set("k3", "0123456789");
    expect(cache.size).toBe(2);
    expect(cache.get("k2")).toBeUndefined();
    expect(cache.get("k1")).toBeDefined();
    expect(cache.heldBytes).toBe(48);
    // An answer larger than the whole bound is answered, not kept.
    expect(cache.set("big", "x".repeat(100)).etag).toMatch(/^"[\w-]+"$/);
    expect(cache.get("big")).toBeUndefined();
  });

  it("names equal bodies with equal ETags and reads If-None-Match lists", () => {
    const cache = new RevisionAnswerCache();
    const a = cache.set("a", '{"id":1}');
    const b = cache.set("b", '{"id":1}');
    expect(a.etag).toBe(b.etag);
    expect(cache.set("c", '{"id":2}').etag).not.toBe(a.etag);
    expect(matchesIfNoneMatch(`"x", W/${a.etag}`, a.etag)).toBe(true);
    expect(matchesIfNoneMatch("*", a.etag)).toBe(true);
    expect(matchesIfNoneMatch('"x"', a.etag)).toBe(false);
    expect(matchesIfNoneMatch(undefined, a.etag)).toBe(false);
  });
});

describe("model info kept per revision", () => {
  let hub: Awaited<ReturnType<typeof repoApp>>;
  const ID = "alice/kept";
  const info = (headers: Record<string, string> = {}, query = "") =>
    hub.app.request(`/api/models/${ID}${query}`, { headers: { ...hub.auth, ...headers } });

  beforeAll(async () => {
    hub = await repoApp();
    await hub.createRepo(ID);
    expect((await hub.commitFiles(ID, { "config.json": "{}" })).status).toBe(200);
    await hub.store.models.upsert({ id: ID, tags: ["kept"], likes: 1 });
  });
  afterAll(() => hub.cleanup());

  it("answers the same bytes with an ETag, and 304 to a client that holds them", async () => {
    const first = await info();
    const second = await info();
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toMatch(/^application\/json/);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(second.headers.get("ETag")).toBe(etag);
    expect(await second.text()).toBe(await first.text());
    const notModified = await info({ "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("ETag")).toBe(etag);
    expect(await notModified.text()).toBe("");
  });

  it("keeps one answer per query that changes it: full=true and expand[] are answers of their own", async () => {
    const plain = await (await info()).text();
    const full = await (await info({}, "?full=true")).text();
    const expanded = await (await info({}, "?expand[]=tags")).text();
    expect(full).not.toBe(plain);
    expect(JSON.parse(expanded)).toEqual({ _id: expect.any(String), id: ID, modelId: ID, tags: ["kept"] });
    // Each asked again: the same bytes as the first time, none served for another query.
    expect(await (await info()).text()).toBe(plain);
    expect(await (await info({}, "?full=true")).text()).toBe(full);
    expect(await (await info({}, "?expand[]=tags")).text()).toBe(expanded);
    expect((await info({}, "?expand[]=nonsense")).status).toBe(400);
  });

  it("follows a commit: a new sha, the new file, a new ETag", async () => {
    const before = await info();
    const etag = before.headers.get("ETag")!;
    expect((await hub.commitFiles(ID, { "added.txt": "new" })).status).toBe(200);
    const after = await info({ "If-None-Match": etag });
    expect(after.status).toBe(200);
    const body = (await after.json()) as { sha: string; siblings: { rfilename: string }[] };
    expect(body.sha).not.toBe(((await before.json()) as { sha: string }).sha);
    expect(body.siblings.map((file) => file.rfilename)).toContain("added.txt");
    expect(after.headers.get("ETag")).not.toBe(etag);
  });

  it("follows what changes without a commit: the catalogue record, mappings, settings", async () => {
    const likes = async () => ((await (await info()).json()) as { likes: number }).likes;
    expect(await likes()).toBe(1);
    await hub.store.models.upsert({ id: ID, tags: ["kept"], likes: 7 });
    expect(await likes()).toBe(7);

    const mapping = async () =>
      (
        (await (await info({}, "?expand[]=inferenceProviderMapping")).json()) as {
          inferenceProviderMapping: Record<string, { providerId: string }>;
        }
      ).inferenceProviderMapping;
    expect(await mapping()).toEqual({});
    await hub.store.mappings.set(ID, "together", {
      status: "live",
      providerId: "alice/kept-turbo",
      task: "conversational",
    });
    expect((await mapping()).together?.providerId).toBe("alice/kept-turbo");

    const settings = await hub.app.request(`/api/models/${ID}/settings`, {
      method: "PUT",
      headers: { ...hub.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ gated: "manual" }),
    });
    expect(settings.status).toBe(200);
    expect(((await (await info()).json()) as { gated: unknown }).gated).toBe("manual");
  });

  it("checks access on every request: a kept private answer reaches its owner only", async () => {
    const settings = await hub.app.request(`/api/models/${ID}/settings`, {
      method: "PUT",
      headers: { ...hub.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ private: true }),
    });
    expect(settings.status).toBe(200);
    const owner = await info();
    expect(owner.status).toBe(200);
    expect(((await owner.json()) as { private: boolean }).private).toBe(true);
    const etag = (await info()).headers.get("ETag")!;
    // Anonymous, with and without the owner's ETag: no answer and no 304 that would confirm the bytes.
    for (const headers of [{}, { "If-None-Match": etag }] as Record<string, string>[]) {
      const anonymous = await hub.app.request(`/api/models/${ID}`, { headers });
      expect([401, 404]).toContain(anonymous.status); // RepoNotFound, as for a missing repository
      expect(anonymous.headers.get("ETag")).toBeNull();
    }
  });

  it("shares a catalogue record while its row is unchanged, frozen", async () => {
    const a = await hub.store.models.shared(ID);
    const b = await hub.store.models.shared(ID);
    expect(b).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a!.tags)).toBe(true);
    await hub.store.models.upsert({ id: ID, tags: ["kept", "changed"], likes: 7 });
    const c = await hub.store.models.shared(ID);
    expect(c).not.toBe(a);
    expect(c!.tags).toEqual(["kept", "changed"]);
  });
});
