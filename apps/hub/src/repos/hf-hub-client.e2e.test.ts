import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";

const SUITE = fileURLToPath(new URL("../__fixtures__/clients/hf_hub_client_suite.py", import.meta.url));
const TRANSFORMERS_SUITE = fileURLToPath(
  new URL("../__fixtures__/clients/transformers_suite.py", import.meta.url),
);

let token: string;
let bobToken: string;
const hub = useTestHub({ blobStoreUnderTest: true });
beforeAll(async () => {
  const accounts = accountsService(hub.store.accounts);
  await accounts.createUser({ name: "alice" });
  token = (await accounts.createToken("alice", { name: "alice", role: "write" })).token;
  await accounts.createUser({ name: "bob" });
  bobToken = (await accounts.createToken("bob", { name: "bob", role: "write" })).token;
});

function clientEnv(): Record<string, string> {
  return hfClientEnv(hub.url, join(hub.dir, "hf-home"), {
    HF_TOKEN: token,
    BOB_TOKEN: bobToken,
    HUB_TEST_BLOB_DOWNLOAD: hub.blobOptions.blobDownload ?? "proxy",
  });
}

describe("huggingface_hub against the hub (HF_ENDPOINT on loopback, Git LFS path)", () => {
  it("runs the client suite: create, upload, download, snapshot, commits, refs, trees, access", async () => {
    const result = await runPython([SUITE], clientEnv());
    const summary = result.stdout.trim().split("\n").at(-1) ?? "";
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(JSON.parse(summary).steps).toHaveLength(20);
  }, 180_000);

  it("transformers loads AutoConfig and AutoTokenizer of a repository uploaded to it (no torch)", async () => {
    const result = await runPython([TRANSFORMERS_SUITE], clientEnv(), 120_000);
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "")).toEqual({
      ok: true,
      model_type: "bert",
    });
  }, 120_000);
});
