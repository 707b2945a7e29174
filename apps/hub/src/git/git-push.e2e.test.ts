import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import { parseStorageQuotas } from "../limits/storage-quotas.js";
import { type GitOptions, runGit, runGitOk } from "./__fixtures__/run-git.js";

// A storage quota for carol only (the quota test); nobody else has one.
const CAROL_PUBLIC_QUOTA = 40_000;
const hub = useTestHub({
  storageQuotas: parseStorageQuotas(JSON.stringify({ owners: { carol: { public: CAROL_PUBLIC_QUOTA } } })),
});
let aliceToken: string;
let aliceReadToken: string;
let bobToken: string;
/** An LFS object of bob's private repository: alice must not be able to point at it. */
let bobOid: string;
let bobSize: number;

/** git as a test user with a fixed identity, so that the ids of the commits it makes are known. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Ada Lovelace",
  GIT_AUTHOR_EMAIL: "ada@example.org",
  GIT_COMMITTER_NAME: "Charles Babbage",
  GIT_COMMITTER_EMAIL: "charles@example.org",
};
const git = (args: string[], options: GitOptions = {}) =>
  runGit(hub.dir, args, { ...options, env: { ...IDENTITY, ...options.env } });
const ok = (args: string[], options: GitOptions = {}) =>
  runGitOk(hub.dir, args, { ...options, env: { ...IDENTITY, ...options.env } });

const withToken = (token: string, path: string) => hub.url.replace("://", `://git:${token}@`) + path;

/** A credential helper answering `token` (git-lfs asks one for the verify URL, which holds no credentials). */
const credentials = (token: string): Record<string, string> => ({
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "credential.helper",
  GIT_CONFIG_VALUE_0: `!f() { echo username=git; echo password=${token}; }; f`,
});

async function api(path: string, init: RequestInit & { token?: string } = {}) {
  const { token = aliceToken, ...rest } = init;
  return fetch(`${hub.url}${path}`, {
    ...rest,
    headers: { Authorization: `Bearer ${token}`, ...(rest.headers as Record<string, string>) },
  });
}

async function createRepo(name: string, token: string, extra: Record<string, unknown> = {}) {
  const response = await api("/api/repos/create", {
    method: "POST",
    token,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "model", name, ...extra }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function hubRef(path: string): Promise<string | undefined> {
  const response = await api(`/api/models/${path}`);
  return response.status === 200 ? ((await response.json()) as { sha: string }).sha : undefined;
}

const head = async (cwd: string) => (await ok(["rev-parse", "HEAD"], { cwd })).trim();

/** Clones alice/pushed with alice's token into a new directory. */
async function cloneAlice(name: string, lfs = false): Promise<string> {
  await ok(["clone", "--quiet", withToken(aliceToken, "/alice/pushed"), name], { lfs });
  return join(hub.dir, name);
}

beforeAll(async () => {
  const accounts = accountsService(hub.store.accounts);
  await accounts.createUser({ name: "alice" });
  aliceToken = (await accounts.createToken("alice", { name: "git", role: "write" })).token;
  aliceReadToken = (await accounts.createToken("alice", { name: "read", role: "read" })).token;
  await accounts.createUser({ name: "bob" });
  bobToken = (await accounts.createToken("bob", { name: "git", role: "write" })).token;
  mkdirSync(join(hub.dir, "home-plain"));
  mkdirSync(join(hub.dir, "home-lfs"));
  await ok(["lfs", "install", "--skip-repo"], { lfs: true });
  await createRepo("pushed", aliceToken);

  // bob's private repository with an LFS file pushed by git-lfs.
  await createRepo("vault", bobToken, { private: true });
  const vault = join(hub.dir, "vault");
  await ok(["clone", "--quiet", withToken(bobToken, "/bob/vault"), vault], { lfs: true });
  await ok(["lfs", "track", "*.bin"], { cwd: vault, lfs: true });
  const secret = randomBytes(50_000);
  bobOid = createHash("sha256").update(secret).digest("hex");
  bobSize = secret.byteLength;
  writeFileSync(join(vault, "secret.bin"), secret);
  await ok(["add", "."], { cwd: vault, lfs: true });
  await ok(["commit", "--quiet", "-m", "secret"], { cwd: vault, lfs: true });
  await ok(["push", "--quiet", "origin", "main"], { cwd: vault, lfs: true, env: credentials(bobToken) });
}, 90_000);

describe("git push over smart HTTP", () => {
  it("pushes to main and to a new branch under git's own commit ids, readable through /resolve", async () => {
    const work = await cloneAlice("work");
    writeFileSync(join(work, "README.md"), "# pushed with git\n");
    mkdirSync(join(work, "nested", "deep"), { recursive: true });
    writeFileSync(join(work, "nested", "deep", "a b.txt"), "spaced name\n");
    await ok(["add", "."], { cwd: work });
    // A time zone other than UTC and a message with a body: both must survive as git wrote them.
    await ok(["commit", "--quiet", "-m", "First push", "-m", "With a body.\n\nTwo paragraphs."], {
      cwd: work,
      env: { GIT_AUTHOR_DATE: "2026-01-02T03:04:05+0530", GIT_COMMITTER_DATE: "2026-01-02T04:05:06-0700" },
    });
    writeFileSync(join(work, "second.txt"), "two\n");
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", "Second"], { cwd: work });
    const pushed = await git(["push", "origin", "main"], { cwd: work });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await hubRef("alice/pushed")).toBe(await head(work));
    const resolved = await api("/alice/pushed/resolve/main/nested/deep/a%20b.txt");
    expect(await resolved.text()).toBe("spaced name\n");
    const commits = (await (await api("/api/models/alice/pushed/commits/main")).json()) as {
      id: string;
      title: string;
      authors: { user: string }[];
    }[];
    expect(commits[1]).toMatchObject({ title: "First push", authors: [{ user: "alice" }] });

    await ok(["checkout", "--quiet", "-b", "feature"], { cwd: work });
    writeFileSync(join(work, "feature.txt"), "on a branch\n");
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", "Feature"], { cwd: work });
    await ok(["push", "--quiet", "origin", "feature"], { cwd: work });
    expect(await hubRef("alice/pushed/revision/feature")).toBe(await head(work));

    // A fresh clone (rebuilt from the hub's records) has the very same commits.
    const fresh = await cloneAlice("fresh");
    await ok(["fetch", "--quiet", "origin", "feature"], { cwd: fresh });
    expect(await ok(["log", "--format=%H %an %ae %ad %cn %cd%n%B", "origin/feature"], { cwd: fresh })).toBe(
      await ok(["log", "--format=%H %an %ae %ad %cn %cd%n%B", "feature"], { cwd: work }),
    );
  }, 90_000);

  it("pushes an LFS file with git-lfs (Basic credentials); huggingface_hub downloads it byte-identical", async () => {
    const work = await cloneAlice("lfs-work", true);
    await ok(["lfs", "track", "*.bin"], { cwd: work, lfs: true });
    const weights = randomBytes(200_000);
    writeFileSync(join(work, "weights.bin"), weights);
    await ok(["add", "."], { cwd: work, lfs: true });
    await ok(["commit", "--quiet", "-m", "Weights"], { cwd: work, lfs: true });
    const pushed = await git(["push", "origin", "main"], {
      cwd: work,
      lfs: true,
      env: credentials(aliceToken),
    });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await hubRef("alice/pushed")).toBe(await head(work));

    const script = [
      "import sys",
      "from huggingface_hub import hf_hub_download",
      "sys.stdout.write(hf_hub_download('alice/pushed', 'weights.bin'))",
    ].join("\n");
    const result = await runPython(
      ["-c", script],
      hfClientEnv(hub.url, join(hub.dir, "hf-home"), { HF_TOKEN: aliceToken }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(result.stdout.trim()).equals(weights)).toBe(true);

    const again = join(hub.dir, "lfs-clone");
    await ok(["clone", "--quiet", withToken(aliceToken, "/alice/pushed"), again], { lfs: true });
    expect(readFileSync(join(again, "weights.bin")).equals(weights)).toBe(true);
    expect(await head(again)).toBe(await head(work));
  }, 120_000);

  it("refuses a non-fast-forward push unless forced, and deletes branches (never main)", async () => {
    const work = await cloneAlice("rewrite");
    await ok(["reset", "--quiet", "--hard", "HEAD~1"], { cwd: work });
    writeFileSync(join(work, "other.txt"), "another history\n");
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", "Rewritten"], { cwd: work });
    const refused = await git(["push", "origin", "main"], { cwd: work });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/rejected/);
    await ok(["push", "--quiet", "--force", "origin", "main"], { cwd: work });
    expect(await hubRef("alice/pushed")).toBe(await head(work));

    await ok(["push", "--quiet", "origin", "--delete", "feature"], { cwd: work });
    expect(await hubRef("alice/pushed/revision/feature")).toBeUndefined();
    const main = await git(["push", "origin", "--delete", "main"], { cwd: work });
    expect(main.code).not.toBe(0);
    expect(main.stderr).toMatch(/main branch cannot be deleted/);
  }, 90_000);

  it("asks for credentials without a token, and refuses a read-only token and someone else's repository", async () => {
    const anonymous = await fetch(`${hub.url}/alice/pushed/info/refs?service=git-receive-pack`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Basic/);

    const work = await cloneAlice("refusals");
    writeFileSync(join(work, "x.txt"), "x\n");
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", "x"], { cwd: work });
    const before = await hubRef("alice/pushed");
    const noToken = await git(["push", `${hub.url}/alice/pushed`, "main"], { cwd: work });
    expect(noToken.code).not.toBe(0);
    expect(noToken.stderr).toMatch(/could not read Username|Authentication failed/);
    const readOnly = await git(["push", withToken(aliceReadToken, "/alice/pushed"), "main"], { cwd: work });
    expect(readOnly.code).not.toBe(0);
    expect(readOnly.stderr).toMatch(/403|write/i);
    const bob = await git(["push", withToken(bobToken, "/alice/pushed"), "main"], { cwd: work });
    expect(bob.code).not.toBe(0);
    expect(bob.stderr).toMatch(/403|40[14]/);
    expect(await hubRef("alice/pushed")).toBe(before);
  }, 90_000);

  it("refuses a pointer to an LFS object uploaded for another repository, and an executable file", async () => {
    const work = await cloneAlice("attack");
    // Hand-written pointer (no git-lfs here): alice knows the hash of bob's private file, nothing more.
    writeFileSync(
      join(work, "stolen.bin"),
      `version https://git-lfs.github.com/spec/v1\noid sha256:${bobOid}\nsize ${bobSize}\n`,
    );
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", "steal"], { cwd: work });
    const before = await hubRef("alice/pushed");
    const stolen = await git(["push", "origin", "main"], { cwd: work });
    expect(stolen.code).not.toBe(0);
    expect(stolen.stderr).toMatch(
      /remote: .*stolen\.bin points to LFS object .*not uploaded for this repository/,
    );
    expect(stolen.stderr).toMatch(/\[remote rejected\] main -> main/);
    expect(await hubRef("alice/pushed")).toBe(before);
    expect((await api(`/alice/pushed/resolve/main/stolen.bin`)).status).toBe(404);

    await ok(["reset", "--quiet", "--hard", "origin/main"], { cwd: work });
    writeFileSync(join(work, "run.sh"), "#!/bin/sh\n");
    chmodSync(join(work, "run.sh"), 0o755);
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", "script"], { cwd: work });
    const executable = await git(["push", "origin", "main"], { cwd: work });
    expect(executable.code).not.toBe(0);
    expect(executable.stderr).toMatch(/run\.sh .* is an executable file/);
    expect(await hubRef("alice/pushed")).toBe(before);
  }, 90_000);
  it("refuses a push that would take the owner past their storage quota, storing nothing", async () => {
    const accounts = accountsService(hub.store.accounts);
    await accounts.createUser({ name: "carol" });
    const carolToken = (await accounts.createToken("carol", { name: "git", role: "write" })).token;
    await createRepo("quota", carolToken);
    const work = join(hub.dir, "carol-quota");
    await ok(["clone", "--quiet", withToken(carolToken, "/carol/quota"), work]);
    writeFileSync(join(work, "small.bin"), randomBytes(5_000));
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", "fits"], { cwd: work });
    await ok(["push", "--quiet", "origin", "main"], { cwd: work });
    const before = await hubRef("carol/quota");
    expect(before).toBe(await head(work));

    // Two files that each fit, but not together: the commit's files are counted as one upload.
    writeFileSync(join(work, "a.bin"), randomBytes(20_000));
    writeFileSync(join(work, "b.bin"), randomBytes(20_000));
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", "too much"], { cwd: work });
    const refused = await git(["push", "origin", "main"], { cwd: work });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/remote: .*Storage quota exceeded: carol's public repositories/);
    expect(refused.stderr).toMatch(/\[remote rejected\] main -> main/);
    expect(await hubRef("carol/quota")).toBe(before);
    expect((await api("/carol/quota/resolve/main/a.bin", { token: carolToken })).status).toBe(404);
  }, 90_000);
});
