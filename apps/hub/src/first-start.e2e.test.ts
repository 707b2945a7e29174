import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HubProcess, startHubProcess } from "./__fixtures__/hub-process.js";
import { makeTempDir } from "./__fixtures__/temp-dir.js";
import { testDatabaseUrl } from "./__fixtures__/test-store.js";

/**
 * The README's first start: the real server (`npm start`'s entry) on an empty data directory serves the
 * built-in catalogue to anonymous readers, prints how to make the first administrator, and that command
 * (the admin CLI, as the README gives it) makes one who can sign in.
 */
const HUB_DIR = fileURLToPath(new URL("..", import.meta.url));
const README = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8");
const PASSWORD = "the first administrator's password";

let temp: ReturnType<typeof makeTempDir>;
let hub: HubProcess;
let env: Record<string, string>;

beforeAll(async () => {
  temp = makeTempDir();
  const dataDir = join(temp.dir, "data");
  const databaseUrl = await testDatabaseUrl(dataDir);
  env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  hub = await startHubProcess(env);
}, 90_000);
afterAll(async () => {
  await hub?.stop();
  temp?.remove();
});

/** `npm run admin -w apps/hub -- ARGS` runs the CLI's entry; here from the sources, as the tests run them. */
function admin(args: string[], stdin: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--conditions=source", "--import", "tsx", "src/cli/main.ts", ...args],
      {
        cwd: HUB_DIR,
        env: { ...process.env, ...env },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
    child.stdin.end(stdin);
  });
}

describe("a fresh clone's first start", () => {
  it("serves the catalogue to anonymous readers and says how to make the first admin, as the README does", async () => {
    expect(README).toContain("npm install && npm start");
    expect(README).toContain("npm run admin -w apps/hub -- users:create");
    // Printed just after the address (once the hub has counted its users).
    await expect
      .poll(() => hub.output(), { timeout: 15_000 })
      .toContain("No accounts yet: anonymous visitors read the public catalogue.");
    expect(hub.output()).toContain("npm run admin -w apps/hub -- users:create NAME --admin --password-stdin");

    const models = await fetch(`${hub.url}/api/models?limit=5`);
    expect(models.status).toBe(200);
    expect(((await models.json()) as unknown[]).length).toBe(5);
    expect((await fetch(`${hub.url}/api/whoami-v2`)).status).toBe(401);
  });

  it("makes the first administrator with the printed command, who can then sign in", {
    timeout: 90_000,
  }, async () => {
    const made = await admin(["users:create", "root", "--admin", "--password-stdin"], `${PASSWORD}\n`);
    expect(made.code, made.output).toBe(0);
    const signIn = await fetch(`${hub.url}/api/auth/signin`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "root", password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const session = await fetch(`${hub.url}/api/auth/session`, { headers: { Cookie: cookie } });
    expect(await session.json()).toMatchObject({ signedIn: true, name: "root", isAdmin: true });
    // And the command exits non-zero, saying why, on bad input.
    const again = await admin(["users:create", "root", "--admin", "--password-stdin"], `${PASSWORD}\n`);
    expect(again.code).not.toBe(0);
    expect(again.output).toMatch(/exists|taken|already/i);
  });
});
