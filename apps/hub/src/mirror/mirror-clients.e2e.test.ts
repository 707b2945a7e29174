import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { downloadFile } from "@huggingface/hub";
import { describe, expect, it } from "vitest";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import type { Logger } from "../logger.js";
import { UPSTREAM_IDS, useTwoHubs } from "./__fixtures__/two-hubs.js";

/**
 * Issue 34's acceptance: the real clients against a mirror hub in front of an upstream Modelhub (two hubs on
 * loopback, a counting proxy between them: __fixtures__/two-hubs.ts). Then the upstream goes away (the
 * proxy's port closes, as when upstream is stopped): what was cached is still served byte for byte and a miss
 * fails fast, naming the cause. Then the mirror restarts offline: it makes no upstream call at all.
 * The tests run in order: each relies on what the ones before it cached.
 */

const SUITE = fileURLToPath(new URL("../__fixtures__/clients/mirror_client_suite.py", import.meta.url));

const requests: Array<{ method: string; path: string; status: number }> = [];
const logger: Logger = {
  log(_level, message, fields) {
    if (message === "request" && fields) requests.push(fields as (typeof requests)[number]);
  },
};
const served = (pattern: RegExp) =>
  requests.filter((r) => pattern.test(`${r.method} ${r.path}`) && r.status < 300).length;

const hubs = useTwoHubs({ mirrorHub: { logger } });

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const model = () => hubs.seeded.publicModel;

/** What mirror_client_suite.py checks against (MIRROR_SUITE). */
function suiteInput() {
  const files = Object.fromEntries(Object.entries(model().files).map(([path, file]) => [path, file.sha256]));
  return {
    model: model().id,
    files,
    cli_file: "pytorch_model.bin",
    model_type: "gpt2",
    dataset: hubs.seeded.dataset.id,
    // data/train.csv as the datasets CSV builder reads it.
    dataset_rows: [
      { text: "hello", label: 1 },
      { text: "world", label: 0 },
      { text: "mirror", label: 1 },
    ],
  };
}

async function runSuite(steps: "pull" | "cached", home: string, extra: Record<string, string> = {}) {
  const result = await runPython(
    [SUITE, steps],
    hfClientEnv(hubs.mirror.url, join(hubs.mirror.dataDir, "..", home), {
      // The suite chooses the transfer per step: hf_xet unless it disables Xet itself.
      HF_HUB_DISABLE_XET: "",
      MIRROR_SUITE: JSON.stringify(suiteInput()),
      ...extra,
    }),
  );
  expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
  return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "") as { ok: boolean; steps: string[] };
}

/** GETs a mirror URL; the status, the body's bytes, and how long the answer took in all (ms). */
async function timedGet(path: string, token?: string) {
  const started = performance.now();
  const response = await fetch(`${hubs.mirror.url}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(30_000),
  });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, body, ms: performance.now() - started, headers: response.headers };
}

const upstreamCalls = () => hubs.upstream.proxy.requests.length;

describe("the real clients against a mirror of an upstream Modelhub", () => {
  it("hf download, snapshot_download (hf_xet and HF_HUB_DISABLE_XET), transformers, datasets: upstream's bytes", async () => {
    const summary = await runSuite("pull", "hf-pull");
    expect(summary.steps).toEqual([
      "hf download",
      "snapshot_download (hf_xet)",
      "snapshot_download (HF_HUB_DISABLE_XET)",
      "transformers AutoConfig + AutoTokenizer",
      "datasets.load_dataset",
    ]);
  }, 180_000);

  it("@huggingface/hub downloadFile, through Xet and plain, gets upstream's bytes", async () => {
    const hubUrl = hubs.mirror.url;
    const repo = { type: "model" as const, name: model().id };
    const reconstructions = served(/^GET \/xet-cas\/v[12]\/reconstructions\//);
    for (const path of ["model.safetensors", "pytorch_model.bin", "tokenizer.json"]) {
      for (const xet of [true, false]) {
        const blob = await downloadFile({ repo, path, hubUrl, xet });
        expect(sha256(Buffer.from(await (blob as Blob).arrayBuffer())), `${path} (xet: ${xet})`).toBe(
          model().files[path]!.sha256,
        );
      }
    }
    // The Xet-stored file, once pulled, is read through the mirror's own CAS (the mirror kept its chunks).
    expect(served(/^GET \/xet-cas\/v[12]\/reconstructions\//)).toBeGreaterThan(reconstructions);
  }, 60_000);

  it("a gated upstream repository needs a local grant", async () => {
    const id = UPSTREAM_IDS.gatedModel;
    const { mia, sam } = hubs.mirror.tokens;
    const refused = await timedGet(`/${id}/resolve/main/config.json`, mia);
    expect(refused.status, refused.body.toString()).toBe(403);
    expect(refused.headers.get("x-error-code")).toBe("GatedRepo");
    const granted = await fetch(`${hubs.mirror.url}/api/models/${id}/user-access-request/grant`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sam}`, "Content-Type": "application/json" },
      body: JSON.stringify({ user: "mia" }),
    });
    expect(granted.status, await granted.text()).toBe(200);
    const read = await timedGet(`/${id}/resolve/main/config.json`, mia);
    expect(read.status, read.body.toString()).toBe(200);
    expect(sha256(read.body)).toBe(hubs.seeded.gatedModel.files["config.json"]!.sha256);
  }, 60_000);

  it("upstream stopped: everything cached is served byte-identical; a miss fails within 5 s naming the cause", async () => {
    await hubs.upstream.proxy.setMode("down");
    try {
      const reconstructions = served(/^GET \/xet-cas\/v[12]\/reconstructions\//);
      const summary = await runSuite("cached", "hf-stopped");
      expect(summary.steps).toEqual(["snapshot_download (upstream stopped)"]);
      // hf_xet got the Xet-stored file from the mirror's own CAS, with nothing upstream.
      expect(served(/^GET \/xet-cas\/v[12]\/reconstructions\//)).toBeGreaterThan(reconstructions);
      for (const [path, file] of Object.entries(model().files)) {
        const cached = await timedGet(`/${model().id}/resolve/main/${path}`);
        expect(cached.status, `${path}: ${cached.body.toString().slice(0, 300)}`).toBe(200);
        expect(sha256(cached.body), path).toBe(file.sha256);
      }

      const { mia, sam } = hubs.mirror.tokens;
      const misses = [
        // Content never read: the gated model's LFS file (only its config was).
        { path: `/${UPSTREAM_IDS.gatedModel}/resolve/main/weights.bin`, token: mia },
        // A revision never imported.
        { path: `/${model().id}/resolve/dev/dev-only.txt`, token: undefined },
        // A repository never looked up.
        { path: `/api/models/${UPSTREAM_IDS.privateModel}`, token: sam },
      ];
      for (const miss of misses) {
        const answer = await timedGet(miss.path, miss.token);
        expect(answer.ms, miss.path).toBeLessThan(5_000);
        expect(answer.status, `${miss.path}: ${answer.body.toString()}`).toBeGreaterThanOrEqual(500);
        const message = answer.body.toString();
        expect(message, miss.path).toMatch(/upstream/i);
        expect(message, miss.path).toMatch(/unreachable|refused|ECONNREFUSED/i);
        expect(message, miss.path).toContain(new URL(hubs.upstream.url).host);
      }
    } finally {
      await hubs.upstream.proxy.setMode("pass");
    }
  }, 120_000);

  it("offline mode makes no upstream call: the cache is served, a miss says so", async () => {
    await hubs.restartMirror({ mode: "offline" });
    const before = upstreamCalls();
    const summary = await runSuite("cached", "hf-offline");
    expect(summary.steps).toEqual(["snapshot_download (upstream stopped)"]);
    const cached = await timedGet(`/${model().id}/resolve/main/model.safetensors`);
    expect(sha256(cached.body)).toBe(model().files["model.safetensors"]!.sha256);

    const { sam } = hubs.mirror.tokens;
    for (const miss of [
      { path: `/${UPSTREAM_IDS.gatedModel}/resolve/main/weights.bin`, token: sam },
      { path: `/${model().id}/resolve/dev/dev-only.txt`, token: undefined },
      { path: `/api/models/${UPSTREAM_IDS.privateModel}`, token: sam },
    ]) {
      const answer = await timedGet(miss.path, miss.token);
      expect(answer.status, `${miss.path}: ${answer.body.toString()}`).toBeGreaterThanOrEqual(400);
      expect(answer.body.toString(), miss.path).toMatch(/not cached.*offline/i);
    }
    // The upstream was up (the proxy passing) the whole time: nothing was asked of it.
    expect(upstreamCalls()).toBe(before);
  }, 120_000);
});
