import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import type { Store } from "../store/store.js";
import { createRepoLookupCache, type RepoLookup } from "./repo-lookup-cache.js";

/**
 * Repository lookups kept under the database's change mark (repo-lookup-cache.ts): answered again without a
 * query only while nothing may have changed; every write of this hub, every commit of another process on the
 * SQLite file (the admin CLI) and every open transaction make the next lookup read the database.
 */
describe("repository lookups under the database's change mark", () => {
  let temp: ReturnType<typeof makeTempDir>;
  let store: Store;
  let key: number;
  const ID = "alice/kept";
  const MAIN = "refs/heads/main";

  /** A lookup through its own cache on the store's database, counting the reads that reached it. */
  const counted = () => {
    const cache = createRepoLookupCache(() => store.db.changeMark?.());
    let reads = 0;
    const lookup = () =>
      cache.lookup("model", ID, MAIN, () => {
        reads++;
        return store.repos.getWithRef("model", ID, MAIN);
      });
    return { lookup, reads: () => reads };
  };
  /** A write from another connection to the file, as the admin CLI makes it (SQLite only). */
  const writeFromAnotherProcess = (sql: string, params: unknown[]) => {
    const other = new BetterSqlite3(store.db.description.replace(/^sqlite:/, ""));
    try {
      other.pragma("busy_timeout = 5000");
      other.prepare(sql).run(...params);
    } finally {
      other.close();
    }
  };
  const sqlite = () => store.db.description.startsWith("sqlite:");

  beforeAll(async () => {
    temp = makeTempDir();
    store = await openTestStore({ dataDir: temp.dir });
    const repo = await store.repos.insert({
      type: "model",
      id: ID,
      owner: "alice",
      private: false,
      gated: false,
      now: new Date().toISOString(),
    });
    key = repo.key;
  });
  afterAll(async () => {
    await store.close();
    temp.remove();
  });

  it("answers again without a query while nothing changed (SQLite); always reads on PostgreSQL", async () => {
    const { lookup, reads } = counted();
    const first = await lookup();
    const second = await lookup();
    expect(second).toEqual(first);
    expect(second?.repo.private).toBe(false);
    expect(reads()).toBe(sqlite() ? 1 : 2);
  });

  it("reads again after this hub's own write, and answers what it wrote", async () => {
    const { lookup, reads } = counted();
    await lookup();
    await store.repos.setSettings(key, { private: true, gated: false });
    expect((await lookup())?.repo.private).toBe(true);
    expect(reads()).toBe(2);
    await store.repos.setSettings(key, { private: false, gated: false });
    expect((await lookup())?.repo.private).toBe(false);
  });

  it("reads again after another process committed to the file (the admin CLI)", async () => {
    if (!sqlite()) return;
    const { lookup, reads } = counted();
    expect((await lookup())?.repo.gated).toBe(false);
    writeFromAnotherProcess("UPDATE repos SET gated = 'manual' WHERE id = ?", [key]);
    expect((await lookup())?.repo.gated).toBe("manual");
    expect(reads()).toBe(2);
    writeFromAnotherProcess("UPDATE repos SET gated = NULL WHERE id = ?", [key]);
    expect((await lookup())?.repo.gated).toBe(false);
  });

  it("keeps nothing read inside an open transaction: a rolled-back write is never answered", async () => {
    const { lookup } = counted();
    await lookup();
    await expect(
      store.transaction(async (tx) => {
        await tx.repos.setSettings(key, { private: true, gated: false });
        // Read on the database itself while the write is not committed: SQLite's one connection sees it.
        await lookup();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await lookup())?.repo.private).toBe(false);
  });

  it("follows the ref: a moved branch answers its new commit", async () => {
    const { lookup } = counted();
    await writeFromAnotherProcessOrHere("INSERT INTO refs (repo_id, name, commit_oid) VALUES (?, ?, ?)", [
      key,
      MAIN,
      "a".repeat(40),
    ]);
    expect((await lookup())?.refCommitOid).toBe("a".repeat(40));
    await store.repos.setRef(key, MAIN, "b".repeat(40));
    expect((await lookup())?.refCommitOid).toBe("b".repeat(40));
  });

  it("gives each caller its own record", async () => {
    const { lookup } = counted();
    const first = (await lookup()) as RepoLookup;
    first.repo.private = true;
    expect((await lookup())?.repo.private).toBe(false);
  });

  /** The ref row written outside the repository service (no commit object needed for a lookup). */
  async function writeFromAnotherProcessOrHere(sql: string, params: unknown[]) {
    if (sqlite()) writeFromAnotherProcess(sql, params);
    else await store.db.run(sql, params);
  }
});
