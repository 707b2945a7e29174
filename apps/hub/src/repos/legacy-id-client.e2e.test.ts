import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import { runAdminCommand } from "../cli/admin-command.js";
import { openBlobStore } from "../storage/blob-store-config.js";

const SUITE = fileURLToPath(new URL("../__fixtures__/clients/legacy_id_suite.py", import.meta.url));

let adminToken: string;
let aliceToken: string;
const hub = useTestHub();
beforeAll(async () => {
  const accounts = accountsService(hub.store.accounts);
  await accounts.createUser({ name: "root", isAdmin: true });
  adminToken = (await accounts.createToken("root", { name: "root", role: "write" })).token;
  await accounts.createOrg({ name: "openai-community", owner: "root" });
  await accounts.createUser({ name: "alice" });
  aliceToken = (await accounts.createToken("alice", { name: "alice", role: "write" })).token;
});

const WEIGHTS = randomBytes(64 * 1024);
const CONFIG = {
  model_type: "gpt2",
  architectures: ["GPT2LMHeadModel"],
  n_embd: 32,
  n_layer: 2,
  n_head: 2,
  vocab_size: 64,
};

/** The site admin commits config.json, a model card and LFS weights to `gpt2` over HTTP; returns the commit id. */
async function commitGpt2(): Promise<string> {
  const auth = { Authorization: `Bearer ${adminToken}` };
  const oid = createHash("sha256").update(WEIGHTS).digest("hex");
  const batch = await fetch(`${hub.url}/gpt2.git/info/lfs/objects/batch`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/vnd.git-lfs+json" },
    body: JSON.stringify({ operation: "upload", objects: [{ oid, size: WEIGHTS.byteLength }] }),
  });
  const href = ((await batch.json()) as { objects: { actions: { upload: { href: string } } }[] }).objects[0]!
    .actions.upload.href;
  expect((await fetch(href, { method: "PUT", body: new Uint8Array(WEIGHTS) })).status).toBe(200);
  const inline = (path: string, text: string) => ({
    key: "file",
    value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" },
  });
  const lines = [
    { key: "header", value: { summary: "Add gpt2" } },
    inline("config.json", JSON.stringify(CONFIG)),
    inline("README.md", "---\nlicense: mit\npipeline_tag: text-generation\n---\n# gpt2\n"),
    { key: "lfsFile", value: { path: "model.safetensors", algo: "sha256", oid, size: WEIGHTS.byteLength } },
  ];
  const response = await fetch(`${hub.url}/api/models/gpt2/commit/main`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  const body = (await response.json()) as { commitOid: string; commitUrl: string };
  expect(response.status).toBe(200);
  expect(body.commitUrl).toBe(`${hub.url}/gpt2/commit/${body.commitOid}`);
  return body.commitOid;
}

describe("single-segment legacy model ids (gpt2)", () => {
  it("are created by the admin command only", async () => {
    const io = {
      readStdin: async () => "",
      publicUrl: hub.url,
      openBlobs: () => openBlobStore({ kind: "fs" }, hub.dataDir),
    };
    await expect(runAdminCommand(["repos:create", "gpt2"], hub.store, [], io)).resolves.toEqual({
      json: { id: "gpt2", type: "model", url: `${hub.url}/gpt2` },
    });
    await expect(runAdminCommand(["repos:create", "gpt2"], hub.store, [], io)).rejects.toThrow(
      /already created/,
    );
    await expect(
      runAdminCommand(["repos:create", "squad", "--type", "dataset"], hub.store, [], io),
    ).rejects.toThrow(/owner\/name/);
    const response = await fetch(`${hub.url}/api/models/gpt2/revision/main`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe("gpt2");
  });

  it("resolve, list and download through huggingface_hub and transformers, and after a move", async () => {
    const sha = await commitGpt2();
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home"), {
      HF_TOKEN: adminToken,
      ALICE_TOKEN: aliceToken,
      GPT2_SHA: sha,
      GPT2_WEIGHTS_SHA256: createHash("sha256").update(WEIGHTS).digest("hex"),
    });
    const result = await runPython([SUITE], env, 150_000);
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "")).toMatchObject({ ok: true });
  }, 160_000);
});
