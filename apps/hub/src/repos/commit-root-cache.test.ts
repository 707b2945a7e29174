import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoApp } from "../__fixtures__/repo-app.js";
import { CommitRootCache } from "./commit-root-cache.js";
import { createReposTable } from "./repos-table.js";

/**
 * A commit's root folder is read from the database once and kept (commit-root-cache.ts): the kept root is
 * the one the database holds, a copy each time (the commit engine builds on it), and a commit the database
 * does not hold, or holds without a root node yet, is never kept.
 */

let hub: Awaited<ReturnType<typeof repoApp>>;
const ID = "alice/roots";

beforeAll(async () => {
  hub = await repoApp();
  await hub.createRepo(ID);
  expect((await hub.commitFiles(ID, { "a.txt": "a" })).status).toBe(200);
});
afterAll(() => hub.cleanup());

describe("CommitRootCache", () => {
  it("keeps at most its bound, the oldest out first", () => {
    const cache = new CommitRootCache(2);
    const root = (node: string) => ({ name: "", node, tree: `tree-${node}` });
    cache.set(1, "c1", root("n1"));
    cache.set(1, "c2", root("n2"));
    cache.set(2, "c1", root("n3"));
    expect(cache.get(1, "c1")).toBeUndefined();
    expect(cache.get(1, "c2")?.node).toBe("n2");
    expect(cache.get(2, "c1")?.node).toBe("n3");
  });

  it("reads a commit's root once, hands out copies, and keeps no unknown commit", async () => {
    const repo = (await hub.store.repos.get("model", ID))!;
    const head = (await hub.store.repos.ref(repo.key, "refs/heads/main"))!;
    const cache = new CommitRootCache();
    const table = createReposTable(hub.store.db, cache);
    const first = await table.rootOf(repo.key, head);
    expect(first?.node).toMatch(/\S/);
    expect(cache.get(repo.key, head)).toEqual(first);
    // A caller that changes what it was given changes neither the kept root nor the next caller's.
    first!.node = "changed";
    const second = await table.rootOf(repo.key, head);
    expect(second?.node).toBe(cache.get(repo.key, head)?.node);
    expect(second?.node).not.toBe("changed");
    expect((await table.file(repo.key, head, "a.txt"))?.size).toBe(1);

    const unknown = "0".repeat(40);
    expect(await table.rootOf(repo.key, unknown)).toBeUndefined();
    expect(cache.get(repo.key, unknown)).toBeUndefined();
  });
});
