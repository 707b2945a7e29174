import { randomBytes } from "node:crypto";
import {
  commit,
  copyFile,
  copyFolder,
  createRepo,
  deleteRepo,
  downloadFile,
  fileDownloadInfo,
  fileExists,
  listFiles,
  pathsInfo,
  uploadFiles,
} from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

/**
 * Storage buckets through the pinned @huggingface/hub, unchanged, against a hub on loopback: each operation
 * its own test suite exercises on buckets (create, upload, list, copy from a bucket and from a model, delete)
 * plus the reads its library offers on them (paths info, download, file info, existence).
 */
const hub = useTestHub();
let accessToken: string;
const bucket = (name: string) => ({ type: "bucket" as const, name: `alice/${name}` });

async function pathsOf(repo: { type: "bucket"; name: string }): Promise<string[]> {
  const files: string[] = [];
  for await (const file of listFiles({ repo, recursive: true, accessToken, hubUrl: hub.url })) {
    if (file.type === "file") files.push(file.path);
  }
  return files.sort();
}

beforeAll(async () => {
  accessToken = await userToken(hub.store, "alice");
});

describe("@huggingface/hub's buckets", () => {
  const weights = randomBytes(300_000);
  const source = bucket("src");

  it("createRepo makes a bucket (private when asked); a second one of that name is refused", async () => {
    const created = await createRepo({ repo: source, accessToken, hubUrl: hub.url, visibility: "private" });
    expect(created.id).toBe("alice/src");
    expect(created.repoUrl).toBe(`${hub.url}/buckets/alice/src`);
    await expect(createRepo({ repo: source, accessToken, hubUrl: hub.url })).rejects.toThrow(/already/);
    const info = await fetch(`${hub.url}/api/buckets/alice/src`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(((await info.json()) as { private: boolean }).private).toBe(true);
    // Private: nobody else sees it.
    expect((await fetch(`${hub.url}/api/buckets/alice/src`)).status).toBe(401);
  });

  it("commit uploads files through Xet and listFiles lists them with their Xet hash", async () => {
    await commit({
      repo: source,
      operations: [
        { operation: "addOrUpdate", path: "test-file.txt", content: new Blob(["hello world"]) },
        { operation: "addOrUpdate", path: "nested/weights.bin", content: new Blob([weights]) },
      ],
      title: "Add test files",
      accessToken,
      hubUrl: hub.url,
    });
    expect(await pathsOf(source)).toEqual(["nested/weights.bin", "test-file.txt"]);
    const top = [];
    for await (const file of listFiles({ repo: source, accessToken, hubUrl: hub.url })) top.push(file);
    expect(top.map((file) => [file.type, file.path]).sort()).toEqual([
      ["directory", "nested"],
      ["file", "test-file.txt"],
    ]);
    const [file] = await pathsInfo({
      repo: source,
      paths: ["nested/weights.bin"],
      accessToken,
      hubUrl: hub.url,
    });
    expect(file).toMatchObject({ type: "file", size: weights.length });
    expect(file?.xetHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("downloadFile, fileDownloadInfo and fileExists read a private bucket's files", async () => {
    const blob = await downloadFile({
      repo: source,
      path: "nested/weights.bin",
      accessToken,
      hubUrl: hub.url,
    });
    expect(Buffer.from(await blob!.arrayBuffer()).equals(weights)).toBe(true);
    const small = await downloadFile({ repo: source, path: "test-file.txt", accessToken, hubUrl: hub.url });
    expect(await small!.text()).toBe("hello world");
    const info = await fileDownloadInfo({
      repo: source,
      path: "nested/weights.bin",
      accessToken,
      hubUrl: hub.url,
    });
    expect(info?.size).toBe(weights.length);
    expect(await fileExists({ repo: source, path: "test-file.txt", accessToken, hubUrl: hub.url })).toBe(
      true,
    );
    expect(await fileExists({ repo: source, path: "missing.txt", accessToken, hubUrl: hub.url })).toBe(false);
    expect(
      await downloadFile({ repo: source, path: "missing.txt", accessToken, hubUrl: hub.url }),
    ).toBeNull();
  });

  it("copyFile copies a file from one bucket to another, by its Xet hash", async () => {
    const destination = bucket("dst");
    await createRepo({ repo: destination, accessToken, hubUrl: hub.url });
    await copyFile({
      source: { repo: source, path: "nested/weights.bin" },
      destination: { repo: destination, path: "copied.bin" },
      accessToken,
      hubUrl: hub.url,
    });
    expect(await pathsOf(destination)).toEqual(["copied.bin"]);
    const copied = await downloadFile({
      repo: destination,
      path: "copied.bin",
      accessToken,
      hubUrl: hub.url,
    });
    expect(Buffer.from(await copied!.arrayBuffer()).equals(weights)).toBe(true);
  });

  it("copyFolder copies a model's folder into a bucket (Xet files by hash, small files re-uploaded)", async () => {
    const model = { type: "model" as const, name: "alice/copied-model" };
    await createRepo({ repo: model, accessToken, hubUrl: hub.url });
    const big = randomBytes(200_000);
    await uploadFiles({
      repo: model,
      accessToken,
      hubUrl: hub.url,
      files: [
        { path: "config.json", content: new Blob(['{"model_type": "test"}']) },
        { path: "model.safetensors", content: new Blob([big]) },
      ],
    });
    const destination = bucket("from-model");
    await createRepo({ repo: destination, accessToken, hubUrl: hub.url });
    await copyFolder({
      source: { repo: model },
      destination: { repo: destination, path: "models/test/" },
      accessToken,
      hubUrl: hub.url,
    });
    expect(await pathsOf(destination)).toEqual([
      "models/test/.gitattributes",
      "models/test/config.json",
      "models/test/model.safetensors",
    ]);
    const copied = await downloadFile({
      repo: destination,
      path: "models/test/model.safetensors",
      accessToken,
      hubUrl: hub.url,
    });
    expect(Buffer.from(await copied!.arrayBuffer()).equals(big)).toBe(true);
  });

  it("commit deletes a bucket's file; deleteRepo deletes the bucket", async () => {
    await commit({
      repo: source,
      operations: [{ operation: "delete", path: "test-file.txt" }],
      title: "",
      accessToken,
      hubUrl: hub.url,
    });
    expect(await pathsOf(source)).toEqual(["nested/weights.bin"]);
    await deleteRepo({ repo: source, accessToken, hubUrl: hub.url });
    const gone = await fetch(`${hub.url}/api/buckets/alice/src`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(gone.status).toBe(404);
    // The copy in the other bucket is its own: still there.
    expect(await pathsOf(bucket("dst"))).toEqual(["copied.bin"]);
  });
});
