import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { casRequest, sampleUpload } from "../lfs-xet/__fixtures__/xet-upload.js";
import { hexToHash } from "../lfs-xet/hashes.js";
import { serializeShard } from "../lfs-xet/shard.js";
import { collectXetGarbage } from "../lfs-xet/xet-gc.js";
import { openBlobStore } from "../storage/blob-store-config.js";

/**
 * Attacks on content-addressed storage (issue 32, classes 1, 2, 3a, 3c and 5; docs/security.md): an outsider
 * with an ordinary account and a write token, against a real hub on loopback. Each test failed on the code
 * before content-claims.ts and the Xet checks, and passes after.
 */
const CHUNK = 128 * 1024;
const hub = useTestHub({ lfsMultipartChunkBytes: CHUNK });
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
let alice: string;
let mallory: string;

const api = (token: string, method: string, path: string, body?: unknown, headers = {}) =>
  fetch(`${hub.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function createRepo(token: string, id: string, settings: { private?: boolean; gated?: string } = {}) {
  expect((await api(token, "POST", "/api/repos/create", { name: id, type: "model" })).status).toBe(200);
  if (settings.private || settings.gated) {
    expect((await api(token, "PUT", `/api/models/${id}/settings`, settings)).status).toBe(200);
  }
}

type BatchObject = {
  oid: string;
  size: number;
  actions?: { upload?: { href: string; header?: Record<string, string> } };
};

async function batch(
  token: string,
  repo: string,
  objects: { oid: string; size: number }[],
  transfers = ["basic"],
) {
  const response = await api(token, "POST", `/${repo}.git/info/lfs/objects/batch`, {
    operation: "upload",
    transfers,
    objects,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { transfer: string; objects: BatchObject[] };
}

/** Uploads bytes through the LFS batch as its owner would; the sha256. */
async function lfsUpload(token: string, repo: string, bytes: Uint8Array): Promise<string> {
  const oid = sha256(bytes);
  const [object] = (await batch(token, repo, [{ oid, size: bytes.length }])).objects;
  const href = object?.actions?.upload?.href;
  if (href) expect((await fetch(href, { method: "PUT", body: bytes as BodyInit })).status).toBe(200);
  return oid;
}

function commit(token: string, repo: string, lines: unknown[], query = "") {
  return fetch(`${hub.url}/api/models/${repo}/commit/main${query}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
}
const header = (summary: string) => ({ key: "header", value: { summary } });
const lfsFile = (path: string, oid: string, size: number) => ({
  key: "lfsFile",
  value: { path, algo: "sha256", oid, size },
});

async function commitLfs(token: string, repo: string, path: string, bytes: Uint8Array): Promise<string> {
  const oid = await lfsUpload(token, repo, bytes);
  expect((await commit(token, repo, [header(`add ${path}`), lfsFile(path, oid, bytes.length)])).status).toBe(
    200,
  );
  return oid;
}

/** A Xet upload of `upload` (xorb, then a shard) with a CAS write token. */
async function casUpload(
  token: string,
  upload: Awaited<ReturnType<typeof sampleUpload>>,
  file = upload.file,
) {
  const xorb = await casRequest(hub.url, "POST", `/v1/xorbs/default/${upload.xorbHex}`, token, upload.xorb);
  expect(xorb.status).toBe(200);
  return casRequest(hub.url, "POST", "/v1/shards", token, serializeShard({ files: [file], xorbs: [] }));
}

/** alice uploads `upload` through Xet (the token her LFS batch hands out) and commits it to her `repo` as `path`. */
async function commitXetAsAlice(
  repo: string,
  path: string,
  upload: Awaited<ReturnType<typeof sampleUpload>>,
) {
  const own = await batch(alice, repo, [{ oid: upload.sha256, size: upload.data.length }], ["xet"]);
  const token = own.objects[0]?.actions?.upload?.header?.["X-Xet-Access-Token"] as string;
  expect((await casUpload(token, upload)).status).toBe(200);
  const added = await commit(alice, repo, [header("xet"), lfsFile(path, upload.sha256, upload.data.length)]);
  expect(added.status).toBe(200);
}

async function download(token: string | undefined, repo: string, path: string) {
  const response = await fetch(`${hub.url}/${repo}/resolve/main/${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  mallory = await userToken(hub.store, "mallory");
  await createRepo(alice, "alice/public");
  await createRepo(alice, "alice/secret", { private: true });
  await createRepo(alice, "alice/gated", { gated: "manual" });
  await createRepo(mallory, "mallory/loot");
});

describe("1: an outsider cannot replace what a public repository serves", () => {
  it("a shard claiming a committed file's sha256 is refused; huggingface_hub with hf_xet gets the owner's bytes", async () => {
    const weights = randomBytes(300_000);
    const oid = await commitLfs(alice, "alice/public", "weights.bin", weights);
    // The batch answer hands a pull-request author a Xet write token for the repository.
    const evil = await sampleUpload(991, 300_000);
    const answer = await batch(
      mallory,
      "alice/public",
      [{ oid: evil.sha256, size: evil.data.length }],
      ["xet"],
    );
    const token = answer.objects[0]?.actions?.upload?.header?.["X-Xet-Access-Token"];
    expect(token).toBeDefined();
    const shard = await casUpload(token as string, evil, { ...evil.file, sha256: hexToHash(oid) });
    expect(shard.status).toBe(400);

    const script = [
      "import hashlib, sys",
      "from huggingface_hub import hf_hub_download",
      "path = hf_hub_download('alice/public', 'weights.bin')",
      "print(hashlib.sha256(open(path, 'rb').read()).hexdigest())",
    ].join("\n");
    const result = await runPython(["-c", script], {
      HF_ENDPOINT: hub.url,
      HF_HOME: join(hub.dir, "hf-home-attack-1"),
      HF_HUB_DISABLE_TELEMETRY: "1",
      HF_HUB_DISABLE_PROGRESS_BARS: "1",
    });
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout.trim()).toBe(oid);
  });
});

describe("2a, 3a, 3c: knowing a file's sha256 and size is no capability", () => {
  it("the batch asks for the bytes of a private or gated object, and a commit cannot name it", async () => {
    const secret = randomBytes(20_000);
    const secretOid = await commitLfs(alice, "alice/secret", "secret.bin", secret);
    const gatedBytes = randomBytes(20_000);
    const gatedOid = await commitLfs(alice, "alice/gated", "gated.bin", gatedBytes);
    // The gated repository's tree is public, with each LFS file's sha256 and size.
    const tree = await (await fetch(`${hub.url}/api/models/alice/gated/tree/main`)).json();
    expect(JSON.stringify(tree)).toContain(gatedOid);

    const never = randomBytes(20_000);
    const answer = await batch(mallory, "mallory/loot", [
      { oid: secretOid, size: secret.length },
      { oid: gatedOid, size: gatedBytes.length },
      { oid: sha256(never), size: never.length },
    ]);
    // 3c: content stored elsewhere gets the same answer as content the hub never saw: upload it.
    for (const object of answer.objects) expect(object.actions?.upload?.href).toBeDefined();
    for (const [oid, size] of [
      [secretOid, secret.length],
      [gatedOid, gatedBytes.length],
    ] as const) {
      const refused = await commit(mallory, "mallory/loot", [
        header("claim"),
        lfsFile("loot.bin", oid, size),
      ]);
      expect(refused.status).toBe(400);
    }
    expect((await download(mallory, "mallory/loot", "loot.bin")).status).toBe(404);
    expect((await download(mallory, "alice/gated", "gated.bin")).status).toBe(403);
  });

  it("a reader's claim attaches nothing that another caller could then commit", async () => {
    const secret = randomBytes(20_000);
    const oid = await commitLfs(alice, "alice/secret", "relay.bin", secret);
    // alice may read the content, so the batch of mallory's public repository skips its upload for her...
    const [object] = (await batch(alice, "mallory/loot", [{ oid, size: secret.length }])).objects;
    expect(object?.actions).toBeUndefined();
    // ...but that makes it mallory's to commit no more than before.
    const refused = await commit(mallory, "mallory/loot", [
      header("relay"),
      lfsFile("relay.bin", oid, secret.length),
    ]);
    expect(refused.status).toBe(400);
    expect((await download(mallory, "mallory/loot", "relay.bin")).status).toBe(404);
  });

  it("deduplication stays: the owner's second repository sends and stores no new bytes", async () => {
    const shared = randomBytes(50_000);
    await createRepo(alice, "alice/first", { private: true });
    await createRepo(alice, "alice/second", { private: true });
    const oid = await commitLfs(alice, "alice/first", "model.bin", shared);
    const before = await hub.store.repos.lfsObject(
      (await hub.store.repos.get("model", "alice/second"))!.key,
      oid,
    );
    expect(before).toBeUndefined();
    const [object] = (await batch(alice, "alice/second", [{ oid, size: shared.length }])).objects;
    expect(object?.actions).toBeUndefined();
    expect(
      (await commit(alice, "alice/second", [header("copy"), lfsFile("model.bin", oid, shared.length)]))
        .status,
    ).toBe(200);
    expect(sha256((await download(alice, "alice/second", "model.bin")).bytes)).toBe(oid);
  });
});

describe("2b: a pull request does not print a gated file", () => {
  it("the diff of a pull request deleting a gated file needs access to the files", async () => {
    const text = `the gated recipe ${randomBytes(8).toString("hex")}`;
    const put = await commit(alice, "alice/gated", [
      header("recipe"),
      { key: "file", value: { path: "recipe.txt", content: text, encoding: "utf-8" } },
    ]);
    expect(put.status).toBe(200);
    const opened = await commit(
      mallory,
      "alice/gated",
      [header("delete the recipe"), { key: "deletedFile", value: { path: "recipe.txt" } }],
      "?create_pr=1",
    );
    expect(opened.status).toBe(200);
    const url = (await opened.json()) as { pullRequestUrl: string };
    const num = url.pullRequestUrl.split("/").at(-1);
    const details = await api(mallory, "GET", `/api/models/alice/gated/discussions/${num}?diff=1`);
    expect(await details.text()).not.toContain(text);
    expect(details.status).toBe(403);
    const owner = await api(alice, "GET", `/api/models/alice/gated/discussions/${num}?diff=1`);
    expect(((await owner.json()) as { diff: string }).diff).toContain(text);
  });
});

describe("2c: a write token never reads through the CAS", () => {
  it("the LFS batch's Xet token cannot reconstruct a gated file", async () => {
    const upload = await sampleUpload(992, 200_000);
    await commitXetAsAlice("alice/gated", "xet.bin", upload);

    const answer = await batch(mallory, "alice/gated", [{ oid: sha256(Buffer.from("x")), size: 1 }], ["xet"]);
    const write = answer.objects[0]?.actions?.upload?.header?.["X-Xet-Access-Token"] as string;
    expect(write).toBeDefined();
    const plan = await casRequest(hub.url, "GET", `/v1/reconstructions/${upload.fileHex}`, write);
    expect(plan.status).toBe(403);
    expect(await plan.text()).not.toContain("fetch");
  });
});

describe("5: nothing is deleted that anything references", () => {
  it("Xet content claimed from a repository stays served after that repository and its files are collected", async () => {
    await createRepo(alice, "alice/origin");
    const upload = await sampleUpload(994, 90_000);
    await commitXetAsAlice("alice/origin", "shared.bin", upload);
    const line = lfsFile("shared.bin", upload.sha256, upload.data.length);
    // mallory may read alice/origin: the content is claimed for mallory/loot, stored once, in Xet only.
    expect((await commit(mallory, "mallory/loot", [header("reuse"), line])).status).toBe(200);
    expect(
      (await api(alice, "DELETE", "/api/repos/delete", { type: "model", name: "alice/origin" })).status,
    ).toBe(200);
    const blobs = await openBlobStore({ kind: "fs" }, hub.dataDir);
    // Two runs past every grace period: the first marks what nothing uses, the second deletes it.
    const later = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000);
    await collectXetGarbage({ gc: hub.store.xetGc, blobs }, { now: later(10) });
    await collectXetGarbage({ gc: hub.store.xetGc, blobs }, { now: later(20) });
    const served = await download(mallory, "mallory/loot", "shared.bin");
    expect(served.status).toBe(200);
    expect(sha256(served.bytes)).toBe(upload.sha256);
  });
});

describe("5: a multipart completion takes only its own parts", () => {
  it("naming another repository's xorb as a part neither assembles it nor deletes it", async () => {
    const upload = await sampleUpload(993, 60_000);
    await commitXetAsAlice("alice/public", "small.bin", upload);
    // The xorb's stored bytes are public (its fetch URLs); mallory makes an object ending with them.
    const xorb = (await hub.store.xet.xorb(upload.xorbHex))!;
    const xorbBytes = upload.xorb;
    // Stored under its Xet hash, which every reconstruction names (docs/decisions/xet-xorb-keys.md).
    expect(xorb.blobSha256).toBe(upload.xorbHex);
    const first = randomBytes(CHUNK);
    const object = Buffer.concat([first, xorbBytes]);
    const answer = await batch(
      mallory,
      "mallory/loot",
      [{ oid: sha256(object), size: object.length }],
      ["basic", "multipart"],
    );
    const action = answer.objects[0]?.actions?.upload as { href: string; header: Record<string, string> };
    const part1 = await fetch(action.header["00001"] as string, { method: "PUT", body: first });
    expect(part1.status).toBe(200);
    const completion = await fetch(action.href, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        oid: sha256(object),
        parts: [
          { partNumber: 1, etag: part1.headers.get("ETag") },
          { partNumber: 2, etag: `"${xorb.blobSha256}"` },
        ],
      }),
    });
    expect(completion.status).toBe(400);
    // The xorb is still there: the hub reconstructs the file from it.
    const after = await fetch(`${hub.url}/alice/public/resolve/main/small.bin`);
    expect(after.status).toBe(200);
    expect(sha256(new Uint8Array(await after.arrayBuffer()))).toBe(upload.sha256);
  });
});

describe("5: a xorb's blob key, its public Xet hash, names no LFS content", () => {
  it("an LFS batch or commit naming it gets no bytes and no reference", async () => {
    const upload = await sampleUpload(992, 70_000);
    await commitXetAsAlice("alice/secret", "secret-xorb.bin", upload);
    const xorb = (await hub.store.xet.xorb(upload.xorbHex))!;
    expect(xorb.blobSha256).toBe(upload.xorbHex);
    // The batch asks for the bytes: a blob stored under that key is not content with that sha256.
    const [object] = (await batch(mallory, "mallory/loot", [{ oid: upload.xorbHex, size: xorb.size }]))
      .objects;
    const href = object?.actions?.upload?.href;
    expect(href).toBeDefined();
    // Bytes of that size that do not hash to it are refused, and the stored xorb is untouched.
    const put = await fetch(href as string, { method: "PUT", body: randomBytes(xorb.size) });
    expect(put.status).toBe(400);
    const line = lfsFile("xorb.bin", upload.xorbHex, xorb.size);
    expect((await commit(mallory, "mallory/loot", [header("xorb"), line])).status).not.toBe(200);
    const served = await fetch(`${hub.url}/alice/secret/resolve/main/secret-xorb.bin`, {
      headers: { Authorization: `Bearer ${alice}` },
    });
    expect(served.status).toBe(200);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(upload.sha256);
  });
});
