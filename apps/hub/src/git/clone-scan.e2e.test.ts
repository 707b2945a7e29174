/**
 * SCAN_POLICY=block on git clone (clone-scan.ts): a repository whose branch holds a regular file the scanner
 * found unsafe is not cloned (git prints the hub's message naming the file and how to allow it); once an
 * owner allows it, the clone goes through. A repository without one clones as ever.
 */
import { execFile } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";

const hub = useTestHub({ scanning: { policy: "block", pollMs: 100 } });
let token: string;

/** A protocol-0 pickle that calls os.system when loaded: what the scanner must call unsafe. */
const EVIL_PICKLE = "cos\nsystem\n(S'echo owned'\ntR.";

function git(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "git",
      args,
      {
        cwd: hub.dir,
        env: {
          PATH: process.env.PATH,
          HOME: hub.dir,
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_TERMINAL_PROMPT: "0",
          LANG: "C",
        },
      },
      (error, _stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          stderr: stderr.toString(),
        }),
    );
  });
}

async function api(path: string, init: RequestInit = {}) {
  return fetch(`${hub.url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...init.headers },
  });
}

async function repoWith(name: string, files: Record<string, string>) {
  expect((await api("/api/repos/create", { method: "POST", body: JSON.stringify({ name }) })).status).toBe(
    200,
  );
  const lines = [
    { key: "header", value: { summary: "files" } },
    ...Object.entries(files).map(([path, content]) => ({
      key: "file",
      value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
    })),
  ];
  const committed = await api(`/api/models/alice/${name}/commit/main`, {
    method: "POST",
    headers: { "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(committed.status, await committed.clone().text()).toBe(200);
}

/** Waits until the scanner has looked at every file of the repository's main branch. */
async function scanned(name: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    const info = (await (await api(`/api/models/alice/${name}?securityStatus=true`)).json()) as {
      securityRepoStatus?: { scansDone: boolean };
    };
    if (info.securityRepoStatus?.scansDone) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the scans of alice/${name} did not finish`);
}

beforeAll(async () => {
  const accounts = accountsService(hub.store.accounts);
  await accounts.createUser({ name: "alice" });
  token = (await accounts.createToken("alice", { name: "git", role: "write" })).token;
  await repoWith("tainted", { "evil.pkl": EVIL_PICKLE, "README.md": "# tainted\n" });
  await repoWith("clean", { "README.md": "# clean\n" });
  await scanned("tainted");
  await scanned("clean");
}, 60_000);

describe("git clone under SCAN_POLICY=block", () => {
  it("refuses a clone carrying an unsafe file, naming it, until an owner allows it", async () => {
    const refused = await git(["clone", "--quiet", `${hub.url}/alice/tainted`, "tainted"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/evil\.pkl was found unsafe .*scan-allow/);

    expect((await git(["clone", "--quiet", `${hub.url}/alice/clean`, "clean"])).code).toBe(0);

    const allowed = await api("/api/models/alice/tainted/scan-allow/main/evil.pkl", { method: "POST" });
    expect(allowed.status, await allowed.clone().text()).toBe(200);
    const cloned = await git(["clone", "--quiet", `${hub.url}/alice/tainted`, "tainted-allowed"]);
    expect(cloned.code, cloned.stderr).toBe(0);
  }, 60_000);
});
