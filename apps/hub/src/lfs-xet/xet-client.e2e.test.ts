import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import type { Logger } from "../logger.js";

const REPO_DIR = fileURLToPath(new URL("../../../../", import.meta.url));
const VENV_PYTHON = join(REPO_DIR, ".venv", "bin", "python");
const SUITE = fileURLToPath(new URL("../__fixtures__/clients/xet_client_suite.py", import.meta.url));

let token: string;
const requests: Array<{ method: string; path: string; status: number }> = [];
const logger: Logger = {
  log(_level, message, fields) {
    if (message === "request" && fields) requests.push(fields as (typeof requests)[number]);
  },
};

/** The operator's token: what a Prometheus scrape of /metrics sends. */
const METRICS_TOKEN = "xet-client-test-admin-token";
const hub = useTestHub({ blobStoreUnderTest: true, logger, adminToken: METRICS_TOKEN });
beforeAll(async () => {
  token = await userToken(hub.store, "alice");
});

function runSuite(mode: "upload" | "download", extraEnv: Record<string, string> = {}) {
  const env = {
    PATH: process.env.PATH ?? "",
    HF_ENDPOINT: hub.url,
    HF_TOKEN: token,
    HF_HOME: join(hub.dir, `hf-home-${mode}-${Object.keys(extraEnv).length}`),
    HF_HUB_DISABLE_TELEMETRY: "1",
    HF_HUB_DISABLE_PROGRESS_BARS: "1",
    ...extraEnv,
  };
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      VENV_PYTHON,
      [SUITE, mode, hub.dir],
      { env, maxBuffer: 16 * 1024 * 1024, timeout: 170_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const casCalls = (pattern: RegExp) =>
  requests.filter((r) => pattern.test(`${r.method} ${r.path}`) && r.status < 300).length;

/** hub_xet_file_sha256_total by source, from /metrics (every series must be there). */
async function fileSha256Sources(): Promise<Record<"upload" | "known" | "read_back", number>> {
  const response = await fetch(`${hub.url}/metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const series = (source: string) => {
    const match = new RegExp(`^hub_xet_file_sha256_total\\{source="${source}"\\} (\\d+)$`, "m").exec(text);
    if (!match) throw new Error(`/metrics has no hub_xet_file_sha256_total{source="${source}"}.`);
    return Number(match[1]);
  };
  return { upload: series("upload"), known: series("known"), read_back: series("read_back") };
}

describe("huggingface_hub with hf_xet (default install) against the hub", () => {
  it("uploads through Xet: upload_file, upload_folder, create_commit", async () => {
    const before = await fileSha256Sources();
    const result = await runSuite("upload");
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    const report = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "");
    expect(report.steps).toEqual([
      "upload_file",
      "upload_folder",
      "create_commit",
      "hf upload",
      "xetHash",
      "upload_file multi-xorb",
    ]);
    // The 70 MiB file spans two xorbs, which hf_xet sends at once (it did: its sha256 was read back).
    const multi = await hub.store.xet.file(report.multi_xorb_hash);
    expect(new Set(multi?.terms.map((term) => term.xorb)).size).toBeGreaterThanOrEqual(2);
    // Every file's sha256 came from the upload's own pass, none from reading the whole file back.
    const after = await fileSha256Sources();
    expect(after.read_back).toBe(before.read_back);
    expect(after.upload - before.upload).toBe(5);
    expect(casCalls(/^POST \/xet-cas\/v1\/xorbs\/default\//)).toBeGreaterThan(0);
    expect(casCalls(/^POST \/xet-cas\/v1\/shards$/)).toBeGreaterThanOrEqual(4);
    // Nothing went through the LFS batch API.
    expect(casCalls(/objects\/batch/)).toBe(0);
  }, 180_000);

  it("downloads back through Xet (reconstruction + xorb ranges), byte-identical", async () => {
    const before = casCalls(/^GET \/xet-cas\/v[12]\/reconstructions\//);
    const result = await runSuite("download");
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(casCalls(/^GET \/xet-cas\/v[12]\/reconstructions\//)).toBeGreaterThan(before);
    expect(casCalls(/^GET \/xet-cas\/v1\/fetch\//)).toBeGreaterThan(0);
  }, 180_000);

  it("downloads back through plain HTTP with HF_HUB_DISABLE_XET=1 (the hub reconstructs), byte-identical", async () => {
    const before = casCalls(/^GET \/xet-cas\/v[12]\/reconstructions\//);
    const result = await runSuite("download", { HF_HUB_DISABLE_XET: "1" });
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "").xet_disabled).toBe(true);
    expect(casCalls(/^GET \/xet-cas\/v[12]\/reconstructions\//)).toBe(before);
  }, 180_000);

  it("serves byte ranges of a Xet-stored file to plain HTTP clients, with the Xet headers", async () => {
    const url = `${hub.url}/alice/xet-suite/resolve/main/big.bin`;
    const head = await fetch(url, { method: "HEAD", headers: { Authorization: `Bearer ${token}` } });
    expect(head.headers.get("x-xet-hash")).toMatch(/^[0-9a-f]{64}$/);
    expect(head.headers.get("link")).toMatch(/xet-read-token\/[0-9a-f]{40}>; rel="xet-auth"/);
    const whole = Buffer.from(
      await (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer(),
    );
    expect(whole.length).toBe(12_000_000);
    for (const [start, end] of [
      [0, 0],
      [65_530, 200_000],
      [5_000_000, 5_000_099],
      [11_999_000, 11_999_999],
    ] as const) {
      const response = await fetch(url, {
        headers: { Authorization: `Bearer ${token}`, Range: `bytes=${start}-${end}` },
      });
      expect(response.status).toBe(206);
      expect(response.headers.get("content-range")).toBe(`bytes ${start}-${end}/12000000`);
      expect(Buffer.from(await response.arrayBuffer()).equals(whole.subarray(start, end + 1))).toBe(true);
    }
  }, 60_000);
});
