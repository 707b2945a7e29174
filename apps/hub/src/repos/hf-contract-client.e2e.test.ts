import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";

const SUITE = fileURLToPath(new URL("../__fixtures__/clients/hf_contract_suite.py", import.meta.url));

let token: string;
let bobToken: string;
const hub = useTestHub();
beforeAll(async () => {
  const accounts = accountsService(hub.store.accounts);
  await accounts.createUser({ name: "alice" });
  token = (await accounts.createToken("alice", { name: "alice", role: "write" })).token;
  await accounts.createUser({ name: "bob" });
  bobToken = (await accounts.createToken("bob", { name: "bob", role: "write" })).token;
});

describe("huggingface_hub's expectations of the public hub beyond the main suite", () => {
  // The steps, each with its attack (another user refused): hf_contract_suite.py.
  it("gitignore, card metadata, gated wording, access decisions, ref errors, squash, duplicate, repos ls", async () => {
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home"), { HF_TOKEN: token, BOB_TOKEN: bobToken });
    const result = await runPython([SUITE], env);
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}");
    expect(summary.ok).toBe(true);
  }, 180_000);
});
