import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import {
  ageBlob,
  type Caller,
  call,
  commit,
  lfsFile,
  lfsUpload,
  sha256Hex,
} from "../repos/__fixtures__/lfs-commits.js";
import type { BlobStore } from "../storage/blob-store.js";
import { openBlobStore } from "../storage/blob-store-config.js";

/**
 * Attacks on list_lfs_files and permanently_delete_lfs_files (repos/lfs-files.ts): an outsider with an
 * account and a write token, the victim's own read token, and an object the attacker's repository does not
 * hold or holds only by copying a public file. Each time the victim's history, listing and bytes stay whole.
 */
const hub = useTestHub();
let victim: Caller;
let victimReader: Caller;
let mallory: Caller;
let blobs: BlobStore;
const weights = randomBytes(4096);
let oid: string;

async function victimStillWhole(): Promise<void> {
  for (const repo of ["victim/public-weights", "victim/private-weights"]) {
    const listed = await call(victim, "GET", `/api/models/${repo}/lfs-files`);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { fileOid: string }[]).map((file) => file.fileOid)).toEqual([oid]);
    const file = await fetch(`${hub.url}/${repo}/resolve/main/weights.bin`, {
      headers: { Authorization: `Bearer ${victim.token}` },
    });
    expect(Buffer.from(await file.arrayBuffer()).equals(weights)).toBe(true);
  }
}

beforeAll(async () => {
  victim = { url: hub.url, token: await userToken(hub.store, "victim") };
  victimReader = { url: hub.url, token: await userToken(hub.store, "victim", "read") };
  mallory = { url: hub.url, token: await userToken(hub.store, "mallory") };
  blobs = await openBlobStore({ kind: "fs" }, hub.dataDir);
  for (const [name, isPrivate] of [
    ["victim/public-weights", false],
    ["victim/private-weights", true],
  ] as const) {
    expect((await call(victim, "POST", "/api/repos/create", { name, private: isPrivate })).status).toBe(200);
    oid = await lfsUpload(victim, name, weights);
    await commit(victim, name, "weights", [lfsFile("weights.bin", oid, weights.length)]);
  }
  expect((await call(mallory, "POST", "/api/repos/create", { name: "mallory/own" })).status).toBe(200);
  ageBlob(hub.dataDir, oid);
});

describe("LFS files attacks", () => {
  it("another user can neither list nor delete: 403 on a public repository, 404 on a private one", async () => {
    const body = { deletions: { sha: [oid], rewriteHistory: true } };
    expect((await call(mallory, "GET", "/api/models/victim/public-weights/lfs-files")).status).toBe(403);
    expect(
      (await call(mallory, "POST", "/api/models/victim/public-weights/lfs-files/batch", body)).status,
    ).toBe(403);
    expect((await call(mallory, "DELETE", `/api/models/victim/public-weights/lfs-files/${oid}`)).status).toBe(
      403,
    );
    expect((await call(mallory, "GET", "/api/models/victim/private-weights/lfs-files")).status).toBe(404);
    expect(
      (await call(mallory, "POST", "/api/models/victim/private-weights/lfs-files/batch", body)).status,
    ).toBe(404);
    await victimStillWhole();
  });

  it("the owner's own read-only token can neither list nor delete", async () => {
    const body = { deletions: { sha: [oid] } };
    for (const repo of ["victim/public-weights", "victim/private-weights"]) {
      expect((await call(victimReader, "GET", `/api/models/${repo}/lfs-files`)).status).toBe(403);
      expect((await call(victimReader, "POST", `/api/models/${repo}/lfs-files/batch`, body)).status).toBe(
        403,
      );
    }
    await victimStillWhole();
  });

  it("naming the victim's hash in one's own repository deletes nothing: not held there", async () => {
    const refused = await call(mallory, "POST", "/api/models/mallory/own/lfs-files/batch", {
      deletions: { sha: [oid, sha256Hex(randomBytes(16))] },
    });
    expect(refused.status).toBe(404);
    expect(await refused.text()).toMatch(/not in models\/mallory\/own/);
    expect(await blobs.head(oid)).toBeDefined();
    await victimStillWhole();
  });

  it("a copy of the victim's public file, deleted from one's own repository, leaves the victim's bytes", async () => {
    // mallory may reference the public file's content (he can download it), so his commit needs no upload.
    await commit(mallory, "mallory/own", "copied", [lfsFile("copy.bin", oid, weights.length)]);
    const deleted = await call(mallory, "POST", "/api/models/mallory/own/lfs-files/batch", {
      deletions: { sha: [oid] },
    });
    expect(deleted.status).toBe(200);
    expect(await blobs.head(oid)).toBeDefined();
    await victimStillWhole();
  });
});
