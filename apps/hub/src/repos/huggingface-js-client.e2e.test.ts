import { randomBytes } from "node:crypto";
import {
  createBranch,
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

  it("createRepo stores the files sent (base64) in the first commit, and a licence as a README", async () => {
    const hubUrl = hub.url;
    const attributes = "*.html filter=lfs diff=lfs merge=lfs -text";
    const repo = { type: "model" as const, name: "alice/js-created-with-files" };
    await createRepo({
      repo,
      accessToken,
      hubUrl,
      license: "apache-2.0",
      files: [
        { path: ".gitattributes", content: new Blob([attributes]) },
        { path: "config/settings.json", content: new Blob(['{"a":1}']) },
      ],
    });
    const text = async (path: string) => (await downloadFile({ repo, path, hubUrl }))?.text();
    expect(await text(".gitattributes")).toBe(attributes);
    expect(await text("config/settings.json")).toBe('{"a":1}');
    expect(await text("README.md")).toBe("---\nlicense: apache-2.0\n---\n");
    expect((await modelInfo({ name: repo.name, hubUrl, additionalFields: ["cardData"] })).cardData).toEqual({
      license: "apache-2.0",
    });

    const withReadme = { type: "dataset" as const, name: "alice/js-own-readme" };
    await createRepo({
      repo: withReadme,
      accessToken,
      hubUrl,
      license: "mit",
      files: [{ path: "README.md", content: new Blob(["# Mine\n"]) }],
    });
    expect(await (await downloadFile({ repo: withReadme, path: "README.md", hubUrl }))?.text()).toBe(
      "# Mine\n",
    );

    await expect(
      createRepo({
        repo: { type: "model", name: "alice/js-bad-path" },
        accessToken,
        hubUrl,
        files: [{ path: "../escape.txt", content: new Blob(["x"]) }],
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(modelInfo({ name: "alice/js-bad-path", hubUrl, accessToken })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it("createBranch: from main, empty (a root commit without files), overwritten", async () => {
    const hubUrl = hub.url;
    const repo = { type: "model" as const, name: "alice/js-branches" };
    await createRepo({ repo, accessToken, hubUrl });
    await uploadFiles({
      repo,
      accessToken,
      hubUrl,
      files: [{ path: "file.txt", content: new Blob(["content"]) }],
    });
    const fileOn = async (revision: string) =>
      (await downloadFile({ repo, path: "file.txt", revision, hubUrl, accessToken }))?.text();

    await createBranch({ repo, branch: "copy", accessToken, hubUrl });
    expect(await fileOn("copy")).toBe("content");
    await createBranch({ repo, branch: "empty", empty: true, accessToken, hubUrl });
    expect(await fileOn("empty")).toBeUndefined();
    const files = [];
    for await (const file of listFiles({ repo, hubUrl, revision: "empty" })) files.push(file);
    expect(files).toEqual([]);
    await expect(createBranch({ repo, branch: "copy", accessToken, hubUrl })).rejects.toMatchObject({
      statusCode: 409,
    });
    // overwrite alone keeps an existing branch; with empty, it becomes the empty root.
    await createBranch({ repo, branch: "copy", overwrite: true, accessToken, hubUrl });
    expect(await fileOn("copy")).toBe("content");
    await createBranch({ repo, branch: "copy", overwrite: true, empty: true, accessToken, hubUrl });
    expect(await fileOn("copy")).toBeUndefined();

    // Files committed to the empty branch are its only ones; main is untouched.
    await uploadFiles({
      repo,
      accessToken,
      hubUrl,
      branch: "empty",
      files: [{ path: "only.txt", content: new Blob(["only"]) }],
    });
    const onEmpty = [];
    for await (const file of listFiles({ repo, hubUrl, revision: "empty" })) onEmpty.push(file.path);
    expect(onEmpty).toEqual(["only.txt"]);
    expect(await fileOn("main")).toBe("content");
  });
});
