import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { whoAmI } from "@huggingface/hub";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";

const REPO_DIR = fileURLToPath(new URL("../../../../", import.meta.url));
const VENV_BIN = join(REPO_DIR, ".venv", "bin");
const SUITE = fileURLToPath(new URL("./__fixtures__/accounts_clients.py", import.meta.url));
const PRIVATE = "acme/secret-model";

let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];
beforeAll(async () => {
  temp = makeTempDir();
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    providerSim: false,
  });
  ({ tokens } = await seedAccounts(hub.store));
  await hub.store.models.upsert({
    id: PRIVATE,
    tags: ["transformers"],
    pipeline_tag: "fill-mask",
    private: true,
  });
});
afterAll(async () => {
  await hub?.close();
  temp?.remove();
});

function run(command: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      command,
      args,
      {
        env: {
          PATH: process.env.PATH ?? "",
          HF_ENDPOINT: hub.url,
          HF_HOME: join(temp.dir, "hf-home"),
          HF_HUB_DISABLE_TELEMETRY: "1",
          NO_COLOR: "1",
          ...env,
        },
        timeout: 90_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("real clients against the hub's accounts", () => {
  it("hf auth login --token, then hf auth whoami, names the user and their organizations", async () => {
    const login = await run(join(VENV_BIN, "hf"), ["auth", "login", "--token", tokens.wesWrite], {});
    expect(login.code, login.stderr).toBe(0);
    const whoami = await run(join(VENV_BIN, "hf"), ["auth", "whoami"], {});
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toContain("wes");
    expect(whoami.stdout).toContain("acme");
    // The token is kept by the CLI, never printed.
    expect(login.stdout + login.stderr + whoami.stdout + whoami.stderr).not.toContain(tokens.wesWrite);
  }, 120_000);

  it("huggingface_hub: whoami(), and list_models / model_info seeing a private model only with access", async () => {
    const result = await run(join(VENV_BIN, "python"), [SUITE], {
      WES_TOKEN: tokens.wesWrite,
      OTTO_TOKEN: tokens.ottoWrite,
      PRIVATE,
    });
    expect(result.code, `${result.stdout}\n${result.stderr.slice(-3000)}`).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1)!)).toEqual({
      whoami: "wes",
      bad_token: 401,
      listed: { member: true, outsider: false, anonymous: false },
      model_info_hidden: true,
    });
  }, 120_000);

  it("@huggingface/hub whoAmI", async () => {
    const me = await whoAmI({ accessToken: tokens.adaWrite, hubUrl: hub.url });
    expect(me).toMatchObject({ type: "user", name: "ada", orgs: [{ name: "acme", roleInOrg: "admin" }] });
    expect(me.auth.accessToken).toMatchObject({ displayName: "ada-write", role: "write" });
    expect(me.auth.accessToken?.createdAt).toBeInstanceOf(Date);
    await expect(whoAmI({ accessToken: tokens.wesRevoked, hubUrl: hub.url })).rejects.toMatchObject({
      statusCode: 401,
    });
  });
});
