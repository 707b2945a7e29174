import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const SUITE = fileURLToPath(new URL("../__fixtures__/clients/hf_lfs_files_suite.py", import.meta.url));

const hub = useTestHub();
let tokens: Record<string, string>;
beforeAll(async () => {
  tokens = {
    HF_TOKEN: await userToken(hub.store, "alice"),
    READ_TOKEN: await userToken(hub.store, "alice", "read"),
    BOB_TOKEN: await userToken(hub.store, "bob"),
  };
});

describe("huggingface_hub's list_lfs_files and permanently_delete_lfs_files", () => {
  // The steps, each with its attacks: hf_lfs_files_suite.py.
  it("lists a history's LFS objects and deletes them for good, to their owner's writers only", async () => {
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home"), tokens);
    const result = await runPython([SUITE], env);
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}");
    expect(summary.ok).toBe(true);
  }, 180_000);
});
