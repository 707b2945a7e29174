import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { BlobStore } from "../storage/blob-store.js";
import { openBlobStore } from "../storage/blob-store-config.js";
import {
  ageBlob,
  type Caller,
  call,
  commit,
  lfsFile,
  lfsUpload,
  sha256Hex,
} from "./__fixtures__/lfs-commits.js";
import { gitBlobId } from "./git-objects.js";
import { lfsPointerText } from "./lfs-pointer.js";

/**
 * list_lfs_files and permanently_delete_lfs_files on a real hub on loopback, with what the client cannot
 * see: the rewritten history's commits, refs and files, the bytes freed only when no other repository holds
 * them, the owner's storage usage, and the audit entry. huggingface_hub's own calls: lfs-files-client.e2e.test.ts.
 */
const hub = useTestHub();
let alice: Caller;
let blobs: BlobStore;

const api = (method: string, path: string, body?: unknown) => call(alice, method, path, body);

async function json<T>(response: Promise<Response>, status = 200): Promise<T> {
  const answered = await response;
  const text = await answered.text();
  expect(answered.status, text).toBe(status);
  return JSON.parse(text) as T;
}

interface LfsFile {
  fileOid: string;
  filename: string;
  oid: string;
  pushedAt: string;
  ref: string | null;
  size: number;
}

beforeAll(async () => {
  alice = { url: hub.url, token: await userToken(hub.store, "alice") };
  blobs = await openBlobStore({ kind: "fs" }, hub.dataDir);
  for (const name of ["alice/purge", "alice/keeper"]) {
    expect((await api("POST", "/api/repos/create", { name, private: true })).status).toBe(200);
  }
});

describe("LFS files of a repository", () => {
  const first = randomBytes(3000);
  const second = randomBytes(5000);
  let firstOid: string;
  let secondOid: string;
  const commits: string[] = [];

  it("lists every LFS object of the history with a path, its size, its pointer's oid and when it came", async () => {
    firstOid = await lfsUpload(alice, "alice/purge", first);
    commits.push(await commit(alice, "alice/purge", "first weights", [lfsFile("w/a.bin", firstOid, 3000)]));
    secondOid = await lfsUpload(alice, "alice/purge", second);
    commits.push(await commit(alice, "alice/purge", "second weights", [lfsFile("w/b.bin", secondOid, 5000)]));
    commits.push(
      await commit(alice, "alice/purge", "drop the first", [
        { key: "deletedFile", value: { path: "w/a.bin" } },
      ]),
    );
    expect((await api("POST", "/api/models/alice/purge/branch/dev")).status).toBe(200);
    // The same content in another repository of the owner (a claim: no new upload).
    await commit(alice, "alice/keeper", "same bytes", [lfsFile("copy.bin", firstOid, 3000)]);

    const listed = await json<LfsFile[]>(api("GET", "/api/models/alice/purge/lfs-files"));
    expect(listed.map((file) => file.fileOid).sort()).toEqual([firstOid, secondOid].sort());
    const one = listed.find((file) => file.fileOid === firstOid)!;
    expect(one).toMatchObject({ filename: "w/a.bin", size: 3000, ref: null });
    expect(one.oid).toBe(gitBlobId(Buffer.from(lfsPointerText(firstOid, 3000))));
    expect(Number.isNaN(Date.parse(one.pushedAt))).toBe(false);

    // Pages follow the Link header.
    const page = await api("GET", "/api/models/alice/purge/lfs-files?limit=1");
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("Link") ?? "")?.[1];
    expect(((await page.json()) as LfsFile[]).length).toBe(1);
    expect(next).toBeDefined();
    const rest = await json<LfsFile[]>(api("GET", new URL(next!).pathname + new URL(next!).search));
    expect(rest.length).toBe(1);
  });

  it("without rewriteHistory, an object commits still name is refused; an unknown one is not found", async () => {
    const refused = await api("POST", "/api/models/alice/purge/lfs-files/batch", {
      deletions: { sha: [firstOid], rewriteHistory: false },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/rewriteHistory/);
    const unknown = await api("POST", "/api/models/alice/purge/lfs-files/batch", {
      deletions: { sha: [sha256Hex(randomBytes(8))] },
    });
    expect(unknown.status).toBe(404);
    // Nothing moved.
    const refs = await json<{ branches: { name: string; targetCommit: string }[] }>(
      api("GET", "/api/models/alice/purge/refs"),
    );
    expect(refs.branches.find((b) => b.name === "main")?.targetCommit).toBe(commits[2]);
  });

  it("rewrites every commit naming the object, moves the refs, keeps bytes another repository holds", async () => {
    ageBlob(hub.dataDir, firstOid);
    const usedBefore = await hub.store.repos.usedStorage(
      (await hub.store.repos.get("model", "alice/purge"))!.key,
    );
    const done = await json<{ deleted: string[]; rewrittenCommits: number; movedRefs: { ref: string }[] }>(
      api("POST", "/api/models/alice/purge/lfs-files/batch", {
        deletions: { sha: [firstOid], rewriteHistory: true },
      }),
    );
    expect(done.deleted).toEqual([firstOid]);
    expect(done.movedRefs.map((moved) => moved.ref).sort()).toEqual(["refs/heads/dev", "refs/heads/main"]);

    // The history: as many commits, every one rewritten, none holding the object; the old ids are gone.
    const history = await json<{ id: string; title: string }[]>(
      api("GET", "/api/models/alice/purge/commits/main"),
    );
    const mine = ["drop the first", "second weights", "first weights"];
    const rewritten = history.filter((entry) => mine.includes(entry.title));
    expect(rewritten.map((entry) => entry.title)).toEqual(mine);
    for (const entry of rewritten) expect(commits).not.toContain(entry.id);
    for (const old of commits) {
      expect((await api("GET", `/api/models/alice/purge/revision/${old}`)).status).toBe(404);
    }
    const firstTree = await json<{ path: string }[]>(
      api("GET", `/api/models/alice/purge/tree/${rewritten[2]!.id}?recursive=true`),
    );
    expect(firstTree.map((entry) => entry.path)).not.toContain("w/a.bin");
    const resolved = await fetch(`${hub.url}/alice/purge/resolve/main/w/b.bin`, {
      headers: { Authorization: `Bearer ${alice.token}` },
    });
    expect(Buffer.from(await resolved.arrayBuffer()).equals(second)).toBe(true);

    // Listing, usage: the object is gone from this repository.
    const listed = await json<LfsFile[]>(api("GET", "/api/models/alice/purge/lfs-files"));
    expect(listed.map((file) => file.fileOid)).toEqual([secondOid]);
    const purge = (await hub.store.repos.get("model", "alice/purge"))!;
    expect(await hub.store.repos.usedStorage(purge.key)).toBe(usedBefore - 3000);

    // The bytes stay: alice/keeper still holds them, and serves them.
    expect(await blobs.head(firstOid)).toBeDefined();
    const kept = await fetch(`${hub.url}/alice/keeper/resolve/main/copy.bin`, {
      headers: { Authorization: `Bearer ${alice.token}` },
    });
    expect(Buffer.from(await kept.arrayBuffer()).equals(first)).toBe(true);

    // The audit log names who deleted what.
    const audited = await hub.store.audit.list({ action: "lfs.delete", limit: 10 });
    expect(audited[0]).toMatchObject({
      action: "lfs.delete",
      target: "model/alice/purge",
      actorName: "alice",
      details: { sha256: [firstOid], rewriteHistory: true, commitsRewritten: 3 },
    });
  });

  it("frees the bytes once no repository holds them, and the branch head's file goes too", async () => {
    const ownerBefore = (await hub.store.storageUsage.usage("alice")).private;
    ageBlob(hub.dataDir, firstOid);
    await json(api("DELETE", `/api/models/alice/keeper/lfs-files/${firstOid}`));
    expect(await blobs.head(firstOid)).toBeUndefined();

    ageBlob(hub.dataDir, secondOid);
    await json(api("POST", "/api/models/alice/purge/lfs-files/batch", { deletions: { sha: [secondOid] } }));
    expect(await blobs.head(secondOid)).toBeUndefined();
    const files = await json<{ path: string }[]>(
      api("GET", "/api/models/alice/purge/tree/main?recursive=true"),
    );
    expect(files.map((entry) => entry.path)).not.toContain("w/b.bin");
    expect(await json<LfsFile[]>(api("GET", "/api/models/alice/purge/lfs-files"))).toEqual([]);
    // The owner's usage (what quotas count) lost both objects' bytes.
    expect((await hub.store.storageUsage.usage("alice")).private).toBe(ownerBefore - 3000 - 5000);
  });
});
