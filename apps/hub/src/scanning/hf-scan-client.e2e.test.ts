import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";

/** huggingface_hub reads the scanner's statuses, and SCAN_POLICY=block refuses an unsafe pickle (hf-scan-client.py). */
const SCRIPT = fileURLToPath(new URL("./hf-scan-client.py", import.meta.url));
const hub = useTestHub({ scanning: { policy: "block", pollMs: 100 } });
let token: string;

beforeAll(async () => {
  const accounts = accountsService(hub.store.accounts);
  await accounts.createUser({ name: "alice" });
  token = (await accounts.createToken("alice", { name: "alice", role: "write" })).token;
});

describe("huggingface_hub against a scanning hub", () => {
  it("lists the statuses and imports, shows the repository status, and blocks the unsafe file until allowed", async () => {
    const result = await runPython(
      [SCRIPT],
      hfClientEnv(hub.url, join(hub.dir, "hf-home"), { HF_TOKEN: token }),
      120_000,
    );
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1)!)).toMatchObject({ ok: true });
  }, 150_000);
});
