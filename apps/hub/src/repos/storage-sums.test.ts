import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoApp } from "../__fixtures__/repo-app.js";
import { StorageSums } from "./storage-sums.js";

/**
 * Storage sums kept until the contents change (storage-sums.ts): a repository's info computes its
 * `usedStorage` once, and every change of its content index (a branch commit, a pull-request commit that
 * moves no `lastModified`, a permanent LFS deletion) gives the new sum on the next request.
 */

describe("StorageSums", () => {
  it("keeps a sum per version, computes again under another version or after forget()", async () => {
    const sums = new StorageSums();
    let computed = 0;
    const compute = async () => ++computed * 100;
    expect(await sums.read(1, "v1", compute)).toBe(100);
    expect(await sums.read(1, "v1", compute)).toBe(100);
    expect(await sums.read(1, "v2", compute)).toBe(200);
    sums.forget(1);
    expect(await sums.read(1, "v2", compute)).toBe(300);
    expect(computed).toBe(3);
  });

  it("does not keep a sum computed while the contents changed", async () => {
    const sums = new StorageSums();
    let release!: () => void;
    const slow = sums.read(7, "v", () => new Promise<number>((resolve) => (release = () => resolve(1))));
    // The contents change (after their transaction committed) while the old sum is being read.
    sums.forget(7);
    release();
    expect(await slow).toBe(1);
    expect(await sums.read(7, "v", async () => 2)).toBe(2);
  });

  it("holds at most its bound, the oldest out first", async () => {
    const sums = new StorageSums(2);
    for (const key of [1, 2, 3]) await sums.read(key, "v", async () => key);
    expect(sums.size).toBe(2);
    expect(await sums.read(1, "v", async () => 10)).toBe(10);
  });
});

describe("usedStorage in repository info", () => {
  let hub: Awaited<ReturnType<typeof repoApp>>;
  const ID = "alice/stored";
  const usedStorage = async () => {
    const answer = await hub.app.request(`/api/models/${ID}?expand[]=usedStorage`, { headers: hub.auth });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { usedStorage: number }).usedStorage;
  };

  beforeAll(async () => {
    hub = await repoApp();
    await hub.createRepo(ID);
    expect((await hub.commitFiles(ID, { "a.txt": "x".repeat(100) })).status).toBe(200);
  });
  afterAll(() => hub.cleanup());

  it("moves with a branch commit and with a pull-request commit, which leaves lastModified alone", async () => {
    const first = await usedStorage();
    expect(await usedStorage()).toBe(first);
    expect((await hub.commitFiles(ID, { "b.txt": "y".repeat(1000) })).status).toBe(200);
    const afterBranch = await usedStorage();
    expect(afterBranch).toBe(first + 1000);
    const before = (await (await hub.app.request(`/api/models/${ID}`, { headers: hub.auth })).json()) as {
      lastModified: string;
    };
    expect((await hub.commitFiles(ID, { "c.txt": "z".repeat(5000) }, "main?create_pr=1")).status).toBe(200);
    const after = (await (await hub.app.request(`/api/models/${ID}`, { headers: hub.auth })).json()) as {
      lastModified: string;
    };
    expect(after.lastModified).toBe(before.lastModified);
    expect(await usedStorage()).toBe(afterBranch + 5000);
  });

  it("a commit that failed changes nothing kept", async () => {
    const now = await usedStorage();
    const refused = await hub.commitFiles(ID, { "d.txt": "w" }, "no-such-branch");
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await usedStorage()).toBe(now);
  });
});
