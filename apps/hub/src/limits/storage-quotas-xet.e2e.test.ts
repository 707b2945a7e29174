import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { casRequest, sampleUpload, xetTokenFor } from "../lfs-xet/__fixtures__/xet-upload.js";
import { serializeShard } from "../lfs-xet/shard.js";
import type { Logger } from "../logger.js";
import { parseStorageQuotas } from "./storage-quotas.js";

/**
 * Storage quotas on the Xet write path: a xorb that would take its repository's owner past the quota is
 * refused before its body is read, counting xorbs already uploaded and not yet committed; a shard that would
 * is refused before its files are registered; committed files stop counting as pending. The same with
 * huggingface_hub and hf_xet, unchanged. And GET /api/quotas/{owner}: usage for the owner only.
 */
const QUOTA = 1_000_000;
const REPO_DIR = fileURLToPath(new URL("../../../../", import.meta.url));
const VENV_PYTHON = join(REPO_DIR, ".venv", "bin", "python");

const requests: Array<{ method: string; path: string; status: number }> = [];
const logger: Logger = {
  log(_level, message, fields) {
    if (message === "request" && fields) requests.push(fields as (typeof requests)[number]);
  },
};
const hub = useTestHub({
  logger,
  storageQuotas: parseStorageQuotas(
    JSON.stringify({ owners: { quinn: { public: QUOTA }, pia: { public: QUOTA } } }),
  ),
});
const tokens: Record<string, string> = {};

async function createRepo(owner: string, name: string) {
  const response = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${tokens[owner]}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: `${owner}/${name}` }),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  for (const name of ["quinn", "bob", "pia"]) tokens[name] = await userToken(hub.store, name);
  await createRepo("quinn", "xet");
  await createRepo("bob", "xet");
  await createRepo("pia", "xet");
});

const writeToken = async (owner: string) =>
  (await xetTokenFor(hub.url, tokens[owner] as string, `${owner}/xet`, "write")).body.accessToken;
const postXorb = (token: string, upload: Awaited<ReturnType<typeof sampleUpload>>) =>
  casRequest(hub.url, "POST", `/v1/xorbs/default/${upload.xorbHex}`, token, upload.xorb);
const postShard = (token: string, upload: Awaited<ReturnType<typeof sampleUpload>>) =>
  casRequest(hub.url, "POST", "/v1/shards", token, serializeShard({ files: [upload.file], xorbs: [] }));
const usage = async (owner: string, as = owner) => {
  const response = await fetch(`${hub.url}/api/quotas/${owner}`, {
    headers: { Authorization: `Bearer ${tokens[as]}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const storedBlobs = () =>
  readdirSync(join(hub.dataDir, "blobs"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .length;

describe("storage quotas on the Xet write path", () => {
  it("refuses a xorb past the quota before storing it, counting uncommitted xorbs; then a shard", async () => {
    const write = await writeToken("quinn");
    const first = await sampleUpload(101, 600_000);
    const second = await sampleUpload(102, 600_000);
    expect((await postXorb(write, first)).status).toBe(200);
    expect((await usage("quinn")).body.public).toMatchObject({ pending: first.xorb.length, quota: QUOTA });

    // The first xorb is not committed yet, but it counts: a second one would pass the quota.
    const blobsBefore = storedBlobs();
    const refused = await postXorb(write, second);
    expect(refused.status).toBe(413);
    const body = (await refused.json()) as { error: string };
    expect(body.error).toMatch(
      /quinn's public repositories hold [\d.]+ GB of their 0\.001 GB public storage/,
    );
    expect(await hub.store.xet.xorb(second.xorbHex)).toBeUndefined();
    expect(storedBlobs()).toBe(blobsBefore);

    // The shard turns the xorb into its file, which counts until a commit references it, then as used.
    expect((await postShard(write, first)).status).toBe(200);
    expect((await usage("quinn")).body.public).toMatchObject({ pending: first.data.length });
    const commit = await fetch(`${hub.url}/api/models/quinn/xet/commit/main`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.quinn}`, "Content-Type": "application/x-ndjson" },
      body: [
        { key: "header", value: { summary: "xet file" } },
        {
          key: "lfsFile",
          value: { path: "a.bin", algo: "sha256", oid: first.sha256, size: first.data.length },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    });
    expect(commit.status).toBe(200);
    const after = (await usage("quinn")).body.public as { used: number; pending: number };
    expect(after.pending).toBe(0);
    expect(after.used).toBeGreaterThanOrEqual(first.data.length);

    // A shard naming a xorb stored already (bob's: no xorb upload to refuse) is refused before registering.
    const bobs = await sampleUpload(103, 600_000);
    const bobWrite = await writeToken("bob");
    expect((await postXorb(bobWrite, bobs)).status).toBe(200);
    expect((await postShard(bobWrite, bobs)).status).toBe(200);
    const shard = await postShard(write, bobs);
    expect(shard.status).toBe(413);
    expect(await shard.text()).toMatch(/public storage quota/);
    const quinnRepo = (await hub.store.repos.get("model", "quinn/xet"))!;
    expect(await hub.store.xet.fileInRepo(bobs.fileHex, quinnRepo.key)).toBe(false);
    // Re-sending the stored xorb adds nothing: it is not refused.
    expect((await postXorb(write, bobs)).status).toBe(200);
  });

  it("huggingface_hub with hf_xet: an upload past the quota fails, nothing is stored or committed", async () => {
    const xorbBytes = await hub.store.xet.totalXorbBytes();
    const callsBefore = requests.length;
    const script = [
      "import os, sys",
      "from huggingface_hub import HfApi",
      "api = HfApi()",
      "data = os.urandom(1_500_000)",
      "try:",
      "    api.upload_file(path_or_fileobj=data, path_in_repo='big.bin', repo_id='pia/xet')",
      "except Exception as error:",
      "    print('refused:', error)",
      "    sys.exit(3)",
      "print('uploaded')",
    ].join("\n");
    const result = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(
        VENV_PYTHON,
        ["-c", script],
        {
          env: {
            PATH: process.env.PATH ?? "",
            HF_ENDPOINT: hub.url,
            HF_TOKEN: tokens.pia,
            HF_HOME: join(hub.dir, "hf-home-quota"),
            HF_HUB_DISABLE_TELEMETRY: "1",
            HF_HUB_DISABLE_PROGRESS_BARS: "1",
          },
          timeout: 150_000,
          maxBuffer: 8 * 1024 * 1024,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}\n${stderr}`.slice(-3000) }),
      );
    });
    expect(result.code, result.out).toBe(3);
    const xorbCalls = requests
      .slice(callsBefore)
      .filter((r) => r.method === "POST" && r.path.startsWith("/xet-cas/v1/xorbs/"));
    expect(xorbCalls.length, result.out).toBeGreaterThan(0);
    expect(
      xorbCalls.map((call) => call.status),
      result.out,
    ).toEqual(xorbCalls.map(() => 413));
    expect(await hub.store.xet.totalXorbBytes()).toBe(xorbBytes);
    const files = await fetch(`${hub.url}/api/models/pia/xet/tree/main`, {
      headers: { Authorization: `Bearer ${tokens.pia}` },
    });
    expect(((await files.json()) as { path: string }[]).map((f) => f.path)).not.toContain("big.bin");
  }, 180_000);

  it("shows usage to its owner only (other users 403, anonymous 401, unknown owner 404)", async () => {
    const own = await usage("pia");
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      owner: "pia",
      type: "user",
      public: { quota: QUOTA, pending: 0 },
      private: { used: 0, pending: 0, quota: null },
    });
    expect((await usage("pia", "bob")).status).toBe(403);
    expect((await fetch(`${hub.url}/api/quotas/pia`)).status).toBe(401);
    expect((await usage("nobody-by-this-name", "pia")).status).toBe(404);
  });
});
