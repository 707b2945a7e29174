import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import { createApp } from "../app.js";
import type { BlobStore } from "../storage/blob-store.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import type { Store } from "../store/store.js";
import { parseStorageQuotas } from "./storage-quotas.js";

/**
 * Storage quotas on each upload path the hub serves: an upload that would take the owner past the quota of
 * the repository's visibility is refused before its bytes are stored (LFS batch: no upload URL is handed
 * out; commit with inline files: nothing is written), naming the quota; content the owner already holds is
 * not counted twice.
 */
let temp: ReturnType<typeof makeTempDir>;
let store: Store;
let blobs: BlobStore;
let app: ReturnType<typeof createApp>;
let auth: Record<string, string>;

beforeAll(async () => {
  temp = makeTempDir();
  store = await openTestStore({ dataDir: temp.dir });
  blobs = await createFsBlobStore(`${temp.dir}/blobs`);
  const open = createApp({ store, blobs, publicUrl: "http://hub.test" });
  auth = { Authorization: `Bearer ${await userToken(store, "quinn")}` };
  for (const [name, isPrivate] of [
    ["quinn/open", false],
    ["quinn/closed", true],
  ] as const) {
    const created = await open.request("/api/repos/create", {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name, private: isPrivate }),
    });
    expect(created.status).toBe(200);
  }
  // Quotas just above what the new repositories hold (their .gitattributes): 1,000 bytes of room private,
  // 5,000 public.
  const used = await store.storageUsage.usage("quinn");
  app = createApp({
    store,
    blobs,
    publicUrl: "http://hub.test",
    storageQuotas: parseStorageQuotas(
      JSON.stringify({ user: { private: used.private + 1000, public: used.public + 5000 } }),
    ),
  });
});
afterAll(async () => {
  await store?.close();
  temp?.remove();
});

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const commit = (repo: string, files: Record<string, Buffer>) =>
  app.request(`/api/models/${repo}/commit/main`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "quota" } },
      ...Object.entries(files).map(([path, content]) => ({
        key: "file",
        value: { path, content: content.toString("base64"), encoding: "base64" },
      })),
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
const batch = (repo: string, objects: { oid: string; size: number }[]) =>
  app.request(`/${repo}.git/info/lfs/objects/batch`, {
    method: "POST",
    headers: {
      ...auth,
      "Content-Type": "application/vnd.git-lfs+json",
      Accept: "application/vnd.git-lfs+json",
    },
    body: JSON.stringify({ operation: "upload", transfers: ["basic"], objects }),
  });

describe("storage quotas", () => {
  it("a commit with inline files over the quota is refused before its bytes are stored", async () => {
    const first = randomBytes(3000);
    expect((await commit("quinn/open", { "a.bin": first })).status).toBe(200);
    const second = randomBytes(2500);
    const refused = await commit("quinn/open", { "b.bin": second });
    expect(refused.status).toBe(413);
    const body = (await refused.json()) as { code: string; error: string };
    expect(body.code).toBe("storage_quota_exceeded");
    expect(body.error).toMatch(
      /quinn's public repositories hold [\d.]+ GB of their [\d.]+ GB public storage quota/,
    );
    expect(body.error).toMatch(/STORAGE_QUOTAS/);
    expect(await blobs.head(sha256(second))).toBeUndefined();
    // The same content again (another path) is counted once: it fits.
    expect((await commit("quinn/open", { "copy.bin": first })).status).toBe(200);
    // Several inline files of one commit count together.
    const refusedTogether = await commit("quinn/open", {
      "c.bin": randomBytes(1200),
      "d.bin": randomBytes(1200),
    });
    expect(refusedTogether.status).toBe(413);
  });

  it("an LFS batch over the quota hands out no upload URL; under it, it does", async () => {
    const fits = await batch("quinn/closed", [{ oid: sha256(Buffer.from("x")), size: 900 }]);
    expect(fits.status).toBe(200);
    const objects = ((await fits.json()) as { objects: { actions?: { upload?: unknown } }[] }).objects;
    expect(objects[0]!.actions?.upload).toBeDefined();
    const over = await batch("quinn/closed", [
      { oid: sha256(Buffer.from("y")), size: 600 },
      { oid: sha256(Buffer.from("z")), size: 600 },
    ]);
    expect(over.status).toBe(413);
    expect(await over.text()).toMatch(/quinn's private repositories .* private storage quota/);
    // The public quota is apart: 1,200 bytes fit there.
    expect((await batch("quinn/open", [{ oid: sha256(Buffer.from("y")), size: 1200 }])).status).toBe(200);
  });
});
