import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoApp } from "../__fixtures__/repo-app.js";
import { CommitFileCache, commitFileCache } from "./commit-file-cache.js";

/**
 * Files found at a commit are kept by repository, commit and path (commit-file-cache.ts): a copy each time,
 * bounded, nothing kept for a path that names no file; and a new commit's file is its own, not the old one's.
 */
describe("CommitFileCache", () => {
  const file = (path: string, size: number) => ({ path, blobOid: "b", sha256: "s", size, lfs: false });

  it("keeps at most its bound, the oldest out first, and hands out copies", () => {
    const cache = new CommitFileCache(2);
    cache.set(1, "c1", file("a", 1));
    cache.set(1, "c1", file("b", 2));
    cache.set(2, "c1", file("a", 3));
    expect(cache.get(1, "c1", "a")).toBeUndefined();
    expect(cache.get(2, "c1", "a")?.size).toBe(3);
    cache.get(1, "c1", "b")!.size = 99;
    expect(cache.get(1, "c1", "b")?.size).toBe(2);
  });

  describe("through the repository's files", () => {
    let hub: Awaited<ReturnType<typeof repoApp>>;
    const ID = "alice/kept-files";
    beforeAll(async () => {
      hub = await repoApp();
      await hub.createRepo(ID);
    });
    afterAll(() => hub.cleanup());

    it("answers each commit's own file, keeps nothing for a missing path", async () => {
      expect((await hub.commitFiles(ID, { "a.txt": "one" })).status).toBe(200);
      const repo = (await hub.store.repos.get("model", ID))!;
      const first = (await hub.store.repos.ref(repo.key, "refs/heads/main"))!;
      expect((await hub.store.repos.file(repo.key, first, "a.txt"))?.size).toBe(3);
      expect(commitFileCache.get(repo.key, first, "a.txt")?.size).toBe(3);
      expect(await hub.store.repos.file(repo.key, first, "missing.txt")).toBeUndefined();
      expect(commitFileCache.get(repo.key, first, "missing.txt")).toBeUndefined();

      expect((await hub.commitFiles(ID, { "a.txt": "three" })).status).toBe(200);
      const second = (await hub.store.repos.ref(repo.key, "refs/heads/main"))!;
      expect((await hub.store.repos.file(repo.key, second, "a.txt"))?.size).toBe(5);
      expect((await hub.store.repos.file(repo.key, first, "a.txt"))?.size).toBe(3);
      const head = await hub.app.request(`/${ID}/resolve/main/a.txt`, { method: "HEAD", headers: hub.auth });
      expect(head.headers.get("X-Repo-Commit")).toBe(second);
      expect(head.headers.get("Content-Length")).toBe("5");
    });
  });
});
