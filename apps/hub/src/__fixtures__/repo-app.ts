import { createApp } from "../app.js";
import type { BlobStore } from "../storage/blob-store.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import { userToken } from "./accounts.js";
import { makeTempDir } from "./temp-dir.js";
import { openTestStore } from "./test-store.js";

export const REPO_PUBLIC_URL = "http://hub.test";

/** The real app with repositories on, over a temp data dir, and a token of "alice" to write with. */
export async function repoApp(options: { wrapBlobs?: (blobs: BlobStore) => BlobStore } = {}) {
  const temp = makeTempDir();
  const store = await openTestStore({ dataDir: temp.dir });
  const fsBlobs = await createFsBlobStore(`${temp.dir}/blobs`);
  const blobs = options.wrapBlobs ? options.wrapBlobs(fsBlobs) : fsBlobs;
  const app = createApp({ store, blobs, publicUrl: REPO_PUBLIC_URL });
  const auth = { Authorization: `Bearer ${await userToken(store, "alice")}` };

  const ndjson = (summary: string, ...lines: unknown[]) =>
    [{ key: "header", value: { summary } }, ...lines].map((line) => JSON.stringify(line)).join("\n");
  return {
    app,
    store,
    blobs,
    auth,
    async createRepo(name: string, type = "model") {
      const response = await app.request("/api/repos/create", {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ name, type }),
      });
      if (response.status !== 200) throw new Error(`create failed: ${response.status} ${await response.text()}`);
    },
    /** Commits inline files ({path: content}) to a branch. */
    commitFiles(id: string, files: Record<string, string | Uint8Array>, revision = "main") {
      const lines = Object.entries(files).map(([path, content]) => ({
        key: "file",
        value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
      }));
      return app.request(`/api/models/${id}/commit/${revision}`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/x-ndjson" },
        body: ndjson("test commit", ...lines),
      });
    },
    ndjson,
    async cleanup() {
      await store.close();
      temp.remove();
    },
  };
}
