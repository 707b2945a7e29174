import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { type RunningNginx, startNginx } from "../__fixtures__/nginx.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

/**
 * DOWNLOAD_OFFLOAD=x-accel with a real nginx on loopback, configured with the file the README documents
 * (apps/hub/nginx/download-offload.conf): the hub authorizes `/resolve`, nginx sends the bytes from its
 * internal location. nginx's log says which URI it served each request from, so the tests can tell that a
 * refused download never reached the internal location.
 */
const CONFIG = fileURLToPath(new URL("../../nginx/download-offload.conf", import.meta.url));
const INTERNAL = "/_hub_blobs/";

const hub = useTestHub({ downloadOffload: { kind: "x-accel", prefix: INTERNAL } });
let nginx: RunningNginx;
let alice: string;
let mallory: string;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const weights = randomBytes(300_000);
const secret = randomBytes(20_000);
const gated = randomBytes(20_000);

const api = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${hub.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Creates `id` and commits `bytes` as the LFS file `path` (uploaded through the LFS batch) and a README. */
async function repoWith(id: string, path: string, bytes: Uint8Array, settings?: Record<string, unknown>) {
  expect((await api(alice, "POST", "/api/repos/create", { name: id, type: "model" })).status).toBe(200);
  if (settings) expect((await api(alice, "PUT", `/api/models/${id}/settings`, settings)).status).toBe(200);
  const oid = sha256(bytes);
  const batch = await api(alice, "POST", `/${id}.git/info/lfs/objects/batch`, {
    operation: "upload",
    transfers: ["basic"],
    objects: [{ oid, size: bytes.length }],
  });
  const href = ((await batch.json()) as { objects: { actions?: { upload?: { href: string } } }[] }).objects[0]
    ?.actions?.upload?.href;
  if (href) expect((await fetch(href, { method: "PUT", body: bytes as BodyInit })).status).toBe(200);
  const lines = [
    { key: "header", value: { summary: "add files" } },
    {
      key: "file",
      value: { path: "README.md", content: Buffer.from("# hi\n").toString("base64"), encoding: "base64" },
    },
    { key: "lfsFile", value: { path, algo: "sha256", oid, size: bytes.length } },
  ];
  const committed = await fetch(`${hub.url}/api/models/${id}/commit/main`, {
    method: "POST",
    headers: { Authorization: `Bearer ${alice}`, "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(committed.status, await committed.clone().text()).toBe(200);
}

/** What nginx logged since `mark` (a count of lines). */
const servedSince = (mark: number) => nginx.served().slice(mark);
const internalHits = (mark: number) => servedSince(mark).filter((line) => line.uri.startsWith(INTERNAL));

beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  mallory = await userToken(hub.store, "mallory");
  await repoWith("alice/public", "weights.bin", weights);
  await repoWith("alice/secret", "secret.bin", secret, { private: true });
  await repoWith("alice/gated", "gated.bin", gated, { gated: "manual" });
  const hubAddress = new URL(hub.url).host;
  const config = readFileSync(CONFIG, "utf8")
    .replaceAll("127.0.0.1:3000", hubAddress)
    .replaceAll("/var/lib/modelhub", hub.dataDir);
  nginx = await startNginx(join(hub.dir, "nginx"), config);
}, 60_000);

afterAll(async () => {
  await nginx?.stop();
});

describe("DOWNLOAD_OFFLOAD=x-accel behind nginx", () => {
  it("an authorized download is sent by nginx from its internal location, with the hub's headers", async () => {
    const head = await fetch(`${nginx.url}/alice/public/resolve/main/weights.bin`, { method: "HEAD" });
    const mark = nginx.served().length;
    const response = await fetch(`${nginx.url}/alice/public/resolve/main/weights.bin`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(weights)).toBe(true);
    expect(response.headers.get("content-length")).toBe(String(weights.length));
    expect(response.headers.get("etag")).toBe(`"${sha256(weights)}"`);
    expect(response.headers.get("x-linked-etag")).toBe(`"${sha256(weights)}"`);
    expect(response.headers.get("x-linked-size")).toBe(String(weights.length));
    expect(response.headers.get("x-repo-commit")).toBe(head.headers.get("x-repo-commit"));
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("content-disposition")).toContain('filename="weights.bin"');
    expect(response.headers.get("x-accel-redirect")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("private, max-age=0, must-revalidate");
    const sha = sha256(weights);
    expect(internalHits(mark)).toEqual([
      { uri: `${INTERNAL}sha256/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`, status: 200 },
    ]);
    // A small git-stored file too, with its text type.
    const readme = await fetch(`${nginx.url}/alice/public/resolve/main/README.md`);
    expect(await readme.text()).toBe("# hi\n");
    expect(readme.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  });

  it("ranges are answered by nginx; a matching If-None-Match is answered 304 by the hub", async () => {
    const url = `${nginx.url}/alice/public/resolve/main/weights.bin`;
    const part = await fetch(url, { headers: { Range: "bytes=1000-1999" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 1000-1999/${weights.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(weights.subarray(1000, 2000))).toBe(true);
    const tail = await fetch(url, { headers: { Range: "bytes=-10" } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(weights.subarray(-10))).toBe(true);
    const beyond = await fetch(url, { headers: { Range: `bytes=${weights.length}-` } });
    expect(beyond.status).toBe(416);
    await beyond.arrayBuffer();
    const mark = nginx.served().length;
    const cached = await fetch(url, { headers: { "If-None-Match": `"${sha256(weights)}"` } });
    expect(cached.status).toBe(304);
    expect(internalHits(mark)).toEqual([]);
  });

  it("a private or gated file never reaches the internal location for a caller who may not read it", async () => {
    const mark = nginx.served().length;
    const refused = [
      await fetch(`${nginx.url}/alice/secret/resolve/main/secret.bin`),
      await fetch(`${nginx.url}/alice/secret/resolve/main/secret.bin`, {
        headers: { Authorization: `Bearer ${mallory}` },
      }),
      await fetch(`${nginx.url}/alice/gated/resolve/main/gated.bin`),
      await fetch(`${nginx.url}/alice/gated/resolve/main/gated.bin`, {
        headers: { Authorization: `Bearer ${mallory}` },
      }),
    ];
    for (const response of refused) {
      expect(response.status).toBeGreaterThanOrEqual(401);
      expect(response.status).toBeLessThanOrEqual(404);
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.includes(secret.subarray(0, 64)) || body.includes(gated.subarray(0, 64))).toBe(false);
    }
    expect(servedSince(mark)).toHaveLength(4);
    expect(internalHits(mark)).toEqual([]);
    // Their owner gets them, through nginx.
    for (const [path, bytes] of [
      ["alice/secret/resolve/main/secret.bin", secret],
      ["alice/gated/resolve/main/gated.bin", gated],
    ] as const) {
      const own = await fetch(`${nginx.url}/${path}`, { headers: { Authorization: `Bearer ${alice}` } });
      expect(own.status).toBe(200);
      expect(Buffer.from(await own.arrayBuffer()).equals(bytes)).toBe(true);
    }
    expect(internalHits(mark)).toHaveLength(2);
  });

  it("attack: the internal location asked for directly, or named in a request header, is refused", async () => {
    const sha = sha256(secret);
    const blobPath = `sha256/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`;
    for (const path of [
      `${INTERNAL}${blobPath}`,
      `/%5Fhub_blobs/${blobPath}`,
      `/x/..${INTERNAL}${blobPath}`,
    ]) {
      const direct = await fetch(`${nginx.url}${path}`);
      const body = Buffer.from(await direct.arrayBuffer());
      expect(direct.status, path).toBe(404);
      expect(body.includes(secret.subarray(0, 64))).toBe(false);
    }
    // A client's own X-Accel-Redirect is a request header: nginx only follows the hub's answer.
    const smuggled = await fetch(`${nginx.url}/api/models/alice/public`, {
      headers: { "X-Accel-Redirect": `${INTERNAL}${blobPath}` },
    });
    expect(smuggled.status).toBe(200);
    expect(Buffer.from(await smuggled.arrayBuffer()).includes(secret.subarray(0, 64))).toBe(false);
  });

  it("huggingface_hub downloads through nginx", async () => {
    const script = [
      "import hashlib",
      "from huggingface_hub import hf_hub_download",
      "path = hf_hub_download('alice/public', 'weights.bin')",
      "print(hashlib.sha256(open(path, 'rb').read()).hexdigest())",
    ].join("\n");
    const mark = nginx.served().length;
    const result = await runPython(["-c", script], hfClientEnv(nginx.url, join(hub.dir, "hf-home")));
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout.trim()).toBe(sha256(weights));
    expect(internalHits(mark)).toHaveLength(1);
  }, 120_000);
});
