import { createHash } from "node:crypto";
import { join } from "node:path";
import { downloadFile } from "@huggingface/hub";
import { describe, expect, it } from "vitest";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { runAdminCommand } from "../cli/admin-command.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import { useTwoHubs } from "./__fixtures__/two-hubs.js";
import { cliMirrorPull } from "./mirror-assembly.js";

/**
 * The mirror's operations against two hubs: the admin API (site admins only: a non-admin can neither read
 * it nor evict), hits and misses and transfers in it and in /metrics, the cache held to its cap (least
 * recently read goes), eviction on demand, and mirror:pull through the pull-through path.
 */

const CAP = 1_600_000;
const hubs = useTwoHubs({ mirror: { maxCacheSize: CAP } });
const MODEL = "hubco/public-model";

async function call(path: string, token: string | undefined, init: RequestInit = {}) {
  return fetch(`${hubs.mirror.url}${path}`, {
    ...init,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(init.body ? { "Content-Type": "application/json" } : {}),
    },
  });
}

/** A file's bytes. (Compared with `equals`: Vitest's deep equality takes seconds on 300 kB, long enough for
 * the server to close the idle keep-alive connection the next fetch reuses.) */
async function read(path: string): Promise<Buffer> {
  const response = await call(`/${MODEL}/resolve/main/${path}`, hubs.mirror.tokens.mia);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function status() {
  const response = await call("/api/admin/mirror", hubs.mirror.tokens.sam);
  expect(response.status).toBe(200);
  return (await response.json()) as {
    upstream: string;
    mode: string;
    cache: { storedBytes: number; maxBytes: number; mirroredRepositories: number };
    stats: { hits: number; misses: number; transfers: { stored: number }; evictions: number };
    policy: { localNamespaces: string[]; maxCacheSize: number };
  };
}

describe("the mirror's administration", () => {
  it("refuses the admin API to anyone but a site admin: reading it and evicting", async () => {
    const evict = { method: "POST", body: JSON.stringify({ all: true }) };
    expect((await call("/api/admin/mirror", undefined)).status).toBe(401);
    expect((await call("/api/admin/mirror", hubs.mirror.tokens.mia)).status).toBe(403);
    expect((await call("/api/admin/mirror", hubs.mirror.tokens.lena)).status).toBe(403);
    expect((await call("/api/admin/mirror/evict", undefined, evict)).status).toBe(401);
    expect((await call("/api/admin/mirror/evict", hubs.mirror.tokens.lena, evict)).status).toBe(403);
    const shown = await status();
    expect(shown).toMatchObject({
      upstream: hubs.upstream.url,
      mode: "pull-through",
      cache: { maxBytes: CAP },
      policy: { localNamespaces: ["mia"], maxCacheSize: CAP },
    });
  });

  it("counts misses, hits and transfers, and keeps the cache under its cap (least recently read goes)", async () => {
    const seeded = hubs.seeded.publicModel.files;
    expect((await read("pytorch_model.bin")).equals(seeded["pytorch_model.bin"]!.content)).toBe(true);
    // Kept once verified, a moment after its last byte: a read before then joins the transfer (a miss).
    let shown = await status();
    for (let tries = 0; tries < 300 && shown.stats.transfers.stored === 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      shown = await status();
    }
    expect((await read("pytorch_model.bin")).equals(seeded["pytorch_model.bin"]!.content)).toBe(true);
    shown = await status();
    expect(shown.stats).toMatchObject({ misses: 1, hits: 1, transfers: { stored: 1 } });
    // 1.5 MB more does not fit beside 300 kB under a 1.6 MB cap: the bin, least recently read, goes.
    expect((await read("model.safetensors")).equals(seeded["model.safetensors"]!.content)).toBe(true);
    for (let tries = 0; tries < 300; tries++) {
      shown = await status();
      if (shown.stats.evictions > 0 && shown.stats.transfers.stored >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(shown.stats.evictions).toBe(1);
    expect(shown.cache.storedBytes).toBeLessThanOrEqual(CAP);
    const metrics = await (await call("/metrics", hubs.mirror.tokens.sam)).text();
    expect(metrics).toContain('hub_mirror_reads_total{result="hit"} 1');
    expect(metrics).toContain('hub_mirror_reads_total{result="miss"} 2');
    expect(metrics).toContain('hub_mirror_upstream_transfers_total{outcome="stored"} 2');
    expect(metrics).toMatch(/hub_mirror_upstream_bytes_total \d+/);
    expect(metrics).toContain("hub_mirror_evictions_total 1");
    expect(metrics).toContain(`hub_mirror_cache_bytes{kind="max"} ${CAP}`);
    // The evicted file is fetched again on its next read, byte for byte.
    expect((await read("pytorch_model.bin")).equals(seeded["pytorch_model.bin"]!.content)).toBe(true);
  }, 60_000);

  it("evicts a repository's content on an admin's demand; the next read fetches it again", async () => {
    // The bin read again above is kept a moment after its last byte (and the safetensors made room for it).
    for (let tries = 0; tries < 300 && (await status()).stats.transfers.stored < 3; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const response = await call("/api/admin/mirror/evict", hubs.mirror.tokens.sam, {
      method: "POST",
      body: JSON.stringify({ repo: `model/${MODEL}` }),
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as { evictedFiles: number; storedBytes: number };
    expect(report.evictedFiles).toBeGreaterThan(0);
    expect(report.storedBytes).toBe(0);
    const before = (await status()).stats.misses;
    expect(
      (await read("model.safetensors")).equals(hubs.seeded.publicModel.files["model.safetensors"]!.content),
    ).toBe(true);
    expect((await status()).stats.misses).toBe(before + 1);
    const refused = await call("/api/admin/mirror/evict", hubs.mirror.tokens.sam, {
      method: "POST",
      body: JSON.stringify({ repo: "model/lena/local-model" }),
    });
    expect(refused.status).toBe(400);
  }, 60_000);

  it("marks mirrored repositories in their info with the upstream and their page there; local ones not", async () => {
    const info = await (await call(`/api/models/${MODEL}`, hubs.mirror.tokens.mia)).json();
    expect(info.mirror).toEqual({ upstream: hubs.upstream.url, url: `${hubs.upstream.url}/${MODEL}` });
    const local = await (await call("/api/models/lena/local-model", hubs.mirror.tokens.lena)).json();
    expect(local.id).toBe("lena/local-model");
    expect(local.mirror).toBeUndefined();
  });

  it("mirror:pull fetches a revision and every file through the pull-through path, once", async () => {
    const openBlobs = async () => createFsBlobStore(join(hubs.mirror.dataDir, "blobs"));
    const pull = cliMirrorPull({
      store: hubs.mirror.store,
      openBlobs,
      settings: hubs.mirror.settings,
      dataDir: hubs.mirror.dataDir,
    });
    const run = async (...args: string[]) =>
      (
        (await runAdminCommand(args, hubs.mirror.store, [], {
          readStdin: async () => "",
          openBlobs,
          mirror: { pull, maxCacheBytes: CAP },
        })) as { json: Record<string, unknown> }
      ).json;
    const first = await run("mirror:pull", "model/hubco/gated-model");
    expect(first).toMatchObject({
      type: "model",
      id: "hubco/gated-model",
      revision: "main",
      fetchedBytes: 120_000,
    });
    const again = await run("mirror:pull", "model/hubco/gated-model");
    expect(again.fetchedBytes).toBe(0);
    const list = (await run("mirror:list")) as { repositories: Array<{ id: string; cachedBytes: number }> };
    expect(list.repositories.find((repo) => repo.id === "hubco/gated-model")?.cachedBytes).toBe(120_000);
    await expect(run("mirror:pull", "model/mia/upstream-only")).rejects.toThrow();
  }, 60_000);

  it("exports what the pull-through cached, and a hub with no upstream serves it after mirror:import", async () => {
    const openBlobs = async () => createFsBlobStore(join(hubs.mirror.dataDir, "blobs"));
    // Only the Xet-stored safetensors cached (the cap holds it or the bin, not both): the bin travels as missing.
    await call("/api/admin/mirror/evict", hubs.mirror.tokens.sam, {
      method: "POST",
      body: JSON.stringify({ all: true }),
    });
    const kept = (await status()).stats.transfers.stored;
    expect(
      (await read("model.safetensors")).equals(hubs.seeded.publicModel.files["model.safetensors"]!.content),
    ).toBe(true);
    for (let tries = 0; tries < 300 && (await status()).stats.transfers.stored === kept; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const bundle = join(hubs.mirror.dataDir, "pulled.tar");
    const exported = (
      (await runAdminCommand(["mirror:export", bundle, `model/${MODEL}`], hubs.mirror.store, [], {
        readStdin: async () => "",
        openBlobs,
      })) as { json: { missing: Array<{ path: string }>; xetFiles: number } }
    ).json;
    expect(exported.missing.map((file) => file.path)).toEqual(["pytorch_model.bin"]);
    expect(exported.xetFiles).toBe(1);
    const dataDir = join(hubs.mirror.dataDir, "..", "airgapped");
    const airgapped = await startTestHub({ dataDir, providerSim: false });
    try {
      const imported = (
        (await runAdminCommand(["mirror:import", bundle], airgapped.store, [], {
          readStdin: async () => "",
          openBlobs: async () => createFsBlobStore(join(dataDir, "blobs")),
        })) as { json: { repositories: Array<{ id: string; created: boolean }> } }
      ).json;
      expect(imported.repositories.map((repo) => repo.created)).toEqual([true]);
      const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
      for (const path of ["model.safetensors", "config.json"]) {
        const blob = await downloadFile({
          repo: { type: "model", name: MODEL },
          path,
          hubUrl: airgapped.url,
        });
        expect(sha(new Uint8Array(await blob!.arrayBuffer()))).toBe(
          hubs.seeded.publicModel.files[path]!.sha256,
        );
      }
      // Not in the bundle, and no upstream to fetch it from: refused, not served wrong.
      const missing = await fetch(`${airgapped.url}/${MODEL}/resolve/main/pytorch_model.bin`);
      expect(missing.status).toBeGreaterThanOrEqual(400);
    } finally {
      await airgapped.close();
    }
  }, 90_000);
});
