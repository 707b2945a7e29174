import { randomBytes } from "node:crypto";
import {
  createRepo,
  downloadFile,
  fileDownloadInfo,
  listFiles,
  modelInfo,
  uploadFiles,
} from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { gitBlobId } from "./git-objects.js";

let accessToken: string;
const hub = useTestHub({ blobStoreUnderTest: true });
beforeAll(async () => {
  accessToken = await userToken(hub.store, "alice");
});

describe("@huggingface/hub against the hub (hubUrl on loopback, Git LFS path)", () => {
  it("creates a repository, uploads regular and LFS files, lists, downloads and describes them", async () => {
    const hubUrl = hub.url;
    const repo = { type: "model" as const, name: "alice/js-client" };
    const created = await createRepo({ repo, accessToken, hubUrl });
    expect(created.repoUrl).toBe(`${hub.url}/alice/js-client`);

    const weights = randomBytes(64 * 1024);
    const readme = "---\nlicense: mit\n---\n# JS\n";
    const commit = await uploadFiles({
      repo,
      accessToken,
      hubUrl,
      useXet: false,
      files: [
        { path: "README.md", content: new Blob([readme]) },
        { path: "config.json", content: new Blob(['{"model_type":"gpt2"}']) },
        { path: "model.safetensors", content: new Blob([weights]) },
      ],
    });
    expect(commit?.commit.oid).toMatch(/^[0-9a-f]{40}$/);

    const files = [];
    for await (const file of listFiles({ repo, hubUrl, recursive: true })) files.push(file);
    const byPath = Object.fromEntries(files.map((file) => [file.path, file]));
    expect(Object.keys(byPath).sort()).toEqual([
      ".gitattributes",
      "README.md",
      "config.json",
      "model.safetensors",
    ]);
    expect(byPath["model.safetensors"]?.lfs?.size).toBe(weights.byteLength);
    expect(byPath["README.md"]?.oid).toBe(gitBlobId(Buffer.from(readme)));

    const downloaded = await downloadFile({ repo, path: "model.safetensors", hubUrl });
    expect(Buffer.from(await downloaded!.arrayBuffer()).equals(weights)).toBe(true);
    expect(await downloadFile({ repo, path: "missing.txt", hubUrl })).toBeNull();

    const info = await fileDownloadInfo({ repo, path: "model.safetensors", hubUrl });
    expect(info?.size).toBe(weights.byteLength);
    // Through a redirect to a bucket (BLOB_DOWNLOAD=redirect) the client reads the bucket's ETag, as it does
    // against the public hub's CDN.
    if (hub.blobOptions.blobDownload !== "redirect") expect(info?.etag).toMatch(/^"[0-9a-f]{64}"$/);

    const model = await modelInfo({ name: repo.name, hubUrl, additionalFields: ["sha", "filePaths"] });
    expect(model.name).toBe(repo.name);
    expect(model.sha).toBe(commit?.commit.oid);
    expect(model.filePaths.sort()).toEqual([
      ".gitattributes",
      "README.md",
      "config.json",
      "model.safetensors",
    ]);
  });
});
