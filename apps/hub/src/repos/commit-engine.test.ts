import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backToFlatSnapshots } from "../__fixtures__/flat-snapshots.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import { ConflictError, EntryNotFoundError } from "../errors.js";
import { migrate } from "../store/migrations.js";
import type { Store } from "../store/store.js";
import { applyCommit, type CommitOperation, initialCommit } from "./commit-engine.js";
import { buildTreeIds, gitBlobId } from "./git-objects.js";
import type { FileRecord, RepoRecord } from "./repos-table.js";

/**
 * The commit engine over tree nodes against the flat model it replaced (a map of path -> file, git ids by
 * buildTreeIds): the same files, the same tree ids, the same refusals, for random sequences of operations on
 * nested and large (paged) folders. And the conversion of flat snapshots (migration 20) gives back each
 * commit's exact tree.
 */
const temp = makeTempDir();
let store: Store;
beforeAll(async () => {
  store = await openTestStore({ dataDir: temp.dir });
});
afterAll(async () => {
  await store.close();
  temp.remove();
});

let repoCount = 0;
async function newRepo(): Promise<RepoRecord> {
  const name = `t/repo-${repoCount++}`;
  return store.writeTransaction(async (tx) => {
    const repo = await tx.repos.insert({
      type: "dataset",
      id: name,
      owner: "t",
      private: false,
      gated: false,
      now: "2026-01-01T00:00:00.000Z",
    });
    await initialCommit(tx, repo, [], "t", new Date("2026-01-01T00:00:00Z"));
    return repo;
  });
}

const fileOf = (content: string, lfs = false): Omit<FileRecord, "path"> => ({
  blobOid: gitBlobId(Buffer.from(content)),
  sha256: createHash("sha256").update(content).digest("hex"),
  size: content.length,
  lfs,
});

const commit = (repo: RepoRecord, operations: CommitOperation[]) =>
  applyCommit(store, repo, {
    ref: "refs/heads/main",
    title: "t",
    description: "",
    author: "t",
    operations,
    now: new Date("2026-01-02T00:00:00Z"),
  });

/** The flat model's rules (the engine before tree nodes), applied to a path -> file map. */
function applyFlat(
  snapshot: Map<string, Omit<FileRecord, "path">>,
  operation: CommitOperation,
): string | undefined {
  const { path } = operation;
  const prefix = `${path}/`;
  if (operation.kind === "put") {
    if ([...snapshot.keys()].some((existing) => existing.startsWith(prefix))) return "conflict";
    for (let cut = path.indexOf("/"); cut >= 0; cut = path.indexOf("/", cut + 1)) {
      if (snapshot.has(path.slice(0, cut))) return "conflict";
    }
    snapshot.set(path, operation.file);
    return undefined;
  }
  if (operation.kind === "deleteFile") return snapshot.delete(path) ? undefined : "not found";
  const inside = [...snapshot.keys()].filter((existing) => existing.startsWith(prefix));
  for (const existing of inside) snapshot.delete(existing);
  return inside.length ? undefined : "not found";
}

async function head(repo: RepoRecord): Promise<string> {
  return (await store.repos.ref(repo.key, "refs/heads/main"))!;
}

async function expectSameAsFlat(repo: RepoRecord, flat: Map<string, Omit<FileRecord, "path">>) {
  const oid = await head(repo);
  const files = await store.repos.files(repo.key, oid);
  const expected = [...flat].map(([path, file]) => ({ path, ...file }));
  expected.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  expect(files).toEqual(expected);
  const trees = buildTreeIds(new Map([...flat].map(([path, file]) => [path, file.blobOid])));
  expect((await store.repos.commit(repo.key, oid))!.tree).toBe(trees.get(""));
  const under = await store.repos.treesUnder(repo.key, oid, "");
  expect(new Map([["", trees.get("")!], ...under])).toEqual(trees);
  // A folder's direct entries (non-recursive listings): the root's and one subfolder's.
  for (const dir of ["", "small"]) {
    const children = await store.repos.children(repo.key, oid, dir);
    if (dir !== "" && !trees.has(dir)) {
      expect(children).toBeUndefined();
      continue;
    }
    const prefix = dir === "" ? "" : `${dir}/`;
    const direct = (path: string) => path.startsWith(prefix) && !path.slice(prefix.length).includes("/");
    expect(children!.files.map((file) => file.path).sort()).toEqual([...flat.keys()].filter(direct).sort());
    expect(new Map([...children!.folders].sort())).toEqual(
      new Map([...trees].filter(([path]) => path !== "" && direct(path)).sort()),
    );
  }
  for (const [path, file] of [...flat].slice(0, 20)) {
    expect(await store.repos.file(repo.key, oid, path)).toEqual({ path, ...file });
  }
}

describe("applyCommit over tree nodes", () => {
  it("keeps the flat model's rules: file vs folder conflicts, missing entries, emptied folders", async () => {
    const repo = await newRepo();
    await commit(repo, [
      { kind: "put", path: "a/b/c.txt", file: fileOf("c") },
      { kind: "put", path: "a/d.txt", file: fileOf("d") },
      { kind: "put", path: "e.txt", file: fileOf("e") },
    ]);
    await expect(commit(repo, [{ kind: "put", path: "a/b", file: fileOf("x") }])).rejects.toThrow(
      ConflictError,
    );
    await expect(commit(repo, [{ kind: "put", path: "e.txt/f", file: fileOf("x") }])).rejects.toThrow(
      "Cannot write e.txt/f: e.txt is a file.",
    );
    await expect(commit(repo, [{ kind: "deleteFile", path: "a/b" }])).rejects.toThrow(EntryNotFoundError);
    await expect(commit(repo, [{ kind: "deleteFile", path: "e.txt/x" }])).rejects.toThrow(EntryNotFoundError);
    await expect(commit(repo, [{ kind: "deleteFolder", path: "e.txt" }])).rejects.toThrow(EntryNotFoundError);
    await expect(commit(repo, [{ kind: "deleteFolder", path: "nope" }])).rejects.toThrow(EntryNotFoundError);
    // A folder emptied in the same commit may become a file; an emptied folder disappears.
    await commit(repo, [
      { kind: "deleteFile", path: "a/b/c.txt" },
      { kind: "put", path: "a/b", file: fileOf("now a file") },
    ]);
    await commit(repo, [{ kind: "deleteFolder", path: "a" }]);
    const oid = await head(repo);
    expect((await store.repos.files(repo.key, oid)).map((file) => file.path)).toEqual(["e.txt"]);
    expect(await store.repos.tree(repo.key, oid, "a")).toBeUndefined();
  });

  it("matches the flat model on random operations over nested and paged folders", async () => {
    const repo = await newRepo();
    const flat = new Map<string, Omit<FileRecord, "path">>();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pathOf = () =>
      [
        ["big", "small/x", "small/y", "deep/a/b", "", "Straße", "ü"][random(7)],
        `f${random(random(2) ? 900 : 30)}${["", ".txt", "-b", "/g"][random(4)]}`,
      ]
        .filter(Boolean)
        .join("/");
    const seedOps: CommitOperation[] = [];
    for (let i = 0; i < 700; i++)
      seedOps.push({ kind: "put", path: `big/f${i}.txt`, file: fileOf(`seed ${i}`) });
    await commit(repo, seedOps);
    for (const op of seedOps) applyFlat(flat, op);
    await expectSameAsFlat(repo, flat);

    for (let round = 0; round < 40; round++) {
      const operations: CommitOperation[] = [];
      for (let i = 0, n = 1 + random(6); i < n; i++) {
        const kind = random(10);
        const path = pathOf();
        if (kind < 6) operations.push({ kind: "put", path, file: fileOf(`${round}:${i}`, random(5) === 0) });
        else if (kind < 9) operations.push({ kind: "deleteFile", path });
        else operations.push({ kind: "deleteFolder", path: path.split("/").slice(0, -1).join("/") || "big" });
      }
      const expected = new Map(flat);
      let refusal: string | undefined;
      for (const operation of operations) refusal ??= applyFlat(expected, operation);
      const result = commit(repo, operations);
      if (refusal === "conflict") await expect(result).rejects.toThrow(ConflictError);
      else if (refusal) await expect(result).rejects.toThrow(EntryNotFoundError);
      else {
        await result;
        flat.clear();
        for (const [path, file] of expected) flat.set(path, file);
      }
      await expectSameAsFlat(repo, flat);
    }
  }, 120_000);

  it("writes only the changed page and the page list for a one-file change in a large folder", async () => {
    const repo = await newRepo();
    const seed: CommitOperation[] = [];
    for (let i = 0; i < 5000; i++) seed.push({ kind: "put", path: `data/${i}.txt`, file: fileOf(`${i}`) });
    await commit(repo, seed);
    const count = async () =>
      Number(
        (await store.db.get<{ n: number }>("SELECT count(*) AS n FROM tree_nodes WHERE repo_id = ?", [
          repo.key,
        ]))!.n,
      );
    const before = await count();
    await commit(repo, [{ kind: "put", path: "data/1234.txt", file: fileOf("changed") }]);
    // The root, the folder's page list and the one page that holds the file.
    expect((await count()) - before).toBe(3);
  });
});

describe("migration 20: flat snapshots become tree nodes", () => {
  it("gives every commit its exact tree back", async () => {
    const repo = await newRepo();
    await commit(repo, [
      { kind: "put", path: "README.md", file: fileOf("readme") },
      { kind: "put", path: "w/model.bin", file: fileOf("weights", true) },
      ...Array.from(
        { length: 400 },
        (_, i): CommitOperation => ({ kind: "put", path: `rows/${i}`, file: fileOf(`${i}`) }),
      ),
    ]);
    await commit(repo, [{ kind: "deleteFile", path: "rows/7" }]);
    const commits = async () =>
      store.db.all<{ repo_id: number; oid: string; root_node: string }>(
        "SELECT repo_id, oid, root_node FROM commits ORDER BY repo_id, oid",
      );
    const nodes = async () =>
      store.db.all<{ repo_id: number; id: string; body: string }>(
        "SELECT repo_id, id, body FROM tree_nodes ORDER BY repo_id, id",
      );
    const contents = async () =>
      store.db.all("SELECT repo_id, sha256, lfs, size FROM repo_contents ORDER BY repo_id, sha256, lfs");
    const before = { commits: await commits(), nodes: await nodes(), contents: await contents() };

    await backToFlatSnapshots(store.db);
    if (store.db.dialect === "sqlite") await store.db.exec("PRAGMA user_version = 18");
    else await store.db.run("UPDATE schema_version SET version = 18");
    await migrate(store.db);

    expect(await commits()).toEqual(before.commits);
    // Nodes only the flat rows cannot tell apart from (none): the same set, as the engine wrote them.
    expect(await nodes()).toEqual(before.nodes);
    expect(await contents()).toEqual(before.contents);
  }, 60_000);
});
