import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { downloadFile } from "@huggingface/hub";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { startTestS3Server, TEST_BUCKET, type TestS3Server } from "../__fixtures__/s3-server.js";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";

const SUITE = fileURLToPath(new URL("../__fixtures__/clients/s3_redirect_suite.py", import.meta.url));

let hub: RunningHub;
let s3: TestS3Server;
let temp: ReturnType<typeof makeTempDir>;
let token: string;
/** The operator's token: what a Prometheus scrape of /metrics sends. */
const METRICS_TOKEN = "s3-blobs-test-admin-token";
beforeAll(async () => {
  temp = makeTempDir();
  s3 = await startTestS3Server();
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    providerSim: false,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    blobStore: { kind: "s3", ...s3.options("hub/") },
    blobDownload: "redirect",
    adminToken: METRICS_TOKEN,
  });
  token = await userToken(hub.store, "alice");
  // An S3 server and a hub (with the AWS SDK) to start: more than the default 10 s on a loaded machine.
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await s3?.close();
  temp?.remove();
});

function runSuite(mode: "lfs" | "xet") {
  const env = hfClientEnv(hub.url, join(temp.dir, `hf-home-${mode}`), { HF_TOKEN: token });
  // The Xet run uses hf_xet, as the default install does.
  if (mode === "xet") delete env.HF_HUB_DISABLE_XET;
  return runPython([SUITE, mode, temp.dir], env, 120_000);
}

/** Objects under the hub's prefix in s3rver's directory. */
function bucketObjects(): string[] {
  const root = join(s3.directory, TEST_BUCKET, "hub", "sha256");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith("._S3rver_object"));
}

describe("blobs in an S3 bucket, downloads redirected to presigned URLs", () => {
  it("huggingface_hub uploads through Git LFS into the bucket and downloads through the 302", async () => {
    const before = bucketObjects().length;
    const result = await runSuite("lfs");
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    const out = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "");
    expect(out.steps).toEqual(["upload lfs", "download through redirect"]);
    // The metadata came from the hub's 302; the location is the bucket's, not the hub's.
    expect(out.location.startsWith(`${s3.endpoint}/${TEST_BUCKET}/hub/sha256/`)).toBe(true);
    expect(out.size).toBe(7_000_000);
    expect(out.etag).toMatch(/^[0-9a-f]{64}$/);
    expect(bucketObjects().length).toBeGreaterThan(before);
    // Nothing was written to the data directory's blob store.
    expect(existsSync(join(temp.dir, "data", "blobs"))).toBe(false);
  }, 120_000);

  it("answers HEAD and GET of an LFS file with a 302 carrying its metadata; ranges follow it", async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const url = `${hub.url}/alice/s3-suite/resolve/main/lfs.bin`;
    const head = await fetch(url, { method: "HEAD", headers: auth, redirect: "manual" });
    expect(head.status).toBe(302);
    expect(head.headers.get("x-linked-size")).toBe("7000000");
    expect(head.headers.get("x-repo-commit")).toMatch(/^[0-9a-f]{40}$/);
    const location = head.headers.get("location") ?? "";
    expect(location.startsWith(s3.endpoint)).toBe(true);
    const part = await fetch(url, { headers: { ...auth, Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    const whole = await fetch(url, { headers: auth });
    expect(whole.headers.get("content-disposition")).toContain("lfs.bin");
    const sha = createHash("sha256")
      .update(Buffer.from(await whole.arrayBuffer()))
      .digest("hex");
    expect(head.headers.get("x-linked-etag")).toBe(`"${sha}"`);
    // Small (non-LFS) files are served by the hub itself, as the public hub does.
    const config = await fetch(`${hub.url}/alice/s3-suite/resolve/main/config.json`, {
      headers: auth,
      redirect: "manual",
    });
    expect(config.status).toBe(200);
    // @huggingface/hub follows the redirect with fetch (the Authorization header stays on the hub).
    const blob = await downloadFile({
      repo: "alice/s3-suite",
      path: "lfs.bin",
      hubUrl: hub.url,
      accessToken: token,
    });
    expect(blob?.size).toBe(7_000_000);
    const metrics = await (
      await fetch(`${hub.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(metrics).toMatch(/hub_blob_store_calls_total\{operation="PutObject",status="200"\} \d+/);
    expect(metrics).toMatch(/hub_blob_store_call_duration_seconds_count\{operation="HeadObject"\} \d+/);
  });

  it("hf_xet's xorbs land in the bucket, and Xet downloads read them back", async () => {
    const before = bucketObjects().length;
    const result = await runSuite("xet");
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "").steps).toEqual([
      "xet upload",
      "xet download",
    ]);
    expect(bucketObjects().length).toBeGreaterThan(before);
    expect(existsSync(join(temp.dir, "data", "blobs"))).toBe(false);
  }, 120_000);
});
