import { createHash, randomBytes } from "node:crypto";
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import type { Logger } from "../logger.js";
import { type GitOptions, runGit, runGitOk } from "./__fixtures__/run-git.js";

/**
 * git at the sizes issue 37 names: a push of 1,000 files and of a large LFS file, each downloaded back
 * byte-identical through huggingface_hub, and the other way: what huggingface_hub uploads (through Git LFS
 * and through Xet) clones byte-identical with git and git-lfs.
 *
 * The large file is the 1 GiB (GIT_E2E_LFS_MB=64 for a quick local round): generated, written under
 * the test's temporary directory, and each copy (the pushed working tree, huggingface_hub's cache, the clone)
 * deleted once checked, so the run holds at most the hub's copy and one other at a time besides git-lfs's.
 * Its cost is in bench/results/2026-11-30-git-2.md. The test hub stores on the local file system.
 */
const LFS_MB = Number(process.env.GIT_E2E_LFS_MB ?? 1024);
const FILE_COUNT = 1000;

/** The requests the hub answered: which path huggingface_hub's upload took (LFS batch or Xet CAS). */
const requests: { method: string; path: string; status: number }[] = [];
const logger: Logger = {
  log(_level, message, fields) {
    if (message === "request" && fields) requests.push(fields as (typeof requests)[number]);
  },
};
const xorbUploads = () =>
  requests.filter((r) => r.method === "POST" && r.path.startsWith("/xet-cas/v1/xorbs/") && r.status < 300)
    .length;

const hub = useTestHub({ logger });
let aliceToken: string;

/** git with a fixed identity (commits need one; the test machine has no git configuration). */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Ada Lovelace",
  GIT_AUTHOR_EMAIL: "ada@example.org",
  GIT_COMMITTER_NAME: "Ada Lovelace",
  GIT_COMMITTER_EMAIL: "ada@example.org",
};
const git = (args: string[], options: GitOptions = {}) =>
  runGit(hub.dir, args, { ...options, env: { ...IDENTITY, ...options.env } });
const ok = (args: string[], options: GitOptions = {}) =>
  runGitOk(hub.dir, args, { ...options, env: { ...IDENTITY, ...options.env } });
const withToken = (path: string) => hub.url.replace("://", `://git:${aliceToken}@`) + path;
/** A credential helper answering alice's token (git-lfs asks one for the upload's verify URL). */
const credentials = (): Record<string, string> => ({
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "credential.helper",
  GIT_CONFIG_VALUE_0: `!f() { echo username=git; echo password=${aliceToken}; }; f`,
});

async function createRepo(name: string) {
  const response = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${aliceToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ type: "model", name }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function hubSha(repo: string): Promise<string> {
  const response = await fetch(`${hub.url}/api/models/${repo}`, {
    headers: { Authorization: `Bearer ${aliceToken}` },
  });
  return ((await response.json()) as { sha: string }).sha;
}

const head = async (cwd: string) => (await ok(["rev-parse", "HEAD"], { cwd })).trim();

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Writes `mib` MiB of random bytes without holding them (one random MiB, varied per MiB); its sha256. */
async function writeBigFile(path: string, mib: number): Promise<string> {
  const hash = createHash("sha256");
  const out = createWriteStream(path);
  const block = randomBytes(1 << 20);
  for (let index = 0; index < mib; index++) {
    block.writeUInt32LE(index, 0);
    hash.update(block);
    if (!out.write(block)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return hash.digest("hex");
}

/** Logs the seconds each step of `what` took (CI's log shows where a slow run spent them). */
function timer(what: string) {
  let last = Date.now();
  return (step: string) => {
    const now = Date.now();
    console.info(`${what}: ${step} ${((now - last) / 1000).toFixed(1)} s`);
    last = now;
  };
}

/** Runs a huggingface_hub script as alice; its last stdout line. */
async function python(script: string, extra: Record<string, string> = {}, xet = false): Promise<string> {
  const env = hfClientEnv(hub.url, join(hub.dir, "hf-home"), { HF_TOKEN: aliceToken, ...extra });
  if (xet) delete env.HF_HUB_DISABLE_XET;
  const result = await runPython(["-c", script], env, 600_000);
  expect(result.code, result.stderr.slice(-4000)).toBe(0);
  return result.stdout.trim().split("\n").at(-1) ?? "";
}

beforeAll(async () => {
  const accounts = accountsService(hub.store.accounts);
  await accounts.createUser({ name: "alice" });
  aliceToken = (await accounts.createToken("alice", { name: "git", role: "write" })).token;
  mkdirSync(join(hub.dir, "home-plain"));
  mkdirSync(join(hub.dir, "home-lfs"));
  await ok(["lfs", "install", "--skip-repo"], { lfs: true });
}, 60_000);

describe("git push at size", () => {
  it(`pushes ${FILE_COUNT} files in one commit; huggingface_hub downloads every one byte-identical`, async () => {
    await createRepo("many");
    const work = join(hub.dir, "many");
    await ok(["clone", "--quiet", withToken("/alice/many"), work]);
    const expected = new Map<string, Buffer>();
    for (let index = 0; index < FILE_COUNT; index++) {
      const path = `shard-${String(index % 10)}/sub ${Math.floor(index / 100)}/file-${index}.txt`;
      // Distinct bytes per file, some empty, some binary: a swapped or truncated file shows.
      const content =
        index % 97 === 0
          ? Buffer.alloc(0)
          : Buffer.concat([Buffer.from(`${index}\n`), randomBytes(index % 700)]);
      mkdirSync(join(work, path, ".."), { recursive: true });
      writeFileSync(join(work, path), content);
      expected.set(path, content);
    }
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", `${FILE_COUNT} files`], { cwd: work });
    await ok(["push", "--quiet", "origin", "main"], { cwd: work });
    expect(await hubSha("alice/many")).toBe(await head(work));

    const target = join(hub.dir, "many-snapshot");
    await python(
      `from huggingface_hub import snapshot_download\nprint(snapshot_download('alice/many', local_dir=${JSON.stringify(target)}))`,
    );
    for (const [path, content] of expected) {
      expect(readFileSync(join(target, path)).equals(content), path).toBe(true);
    }

    // A clone right after the push reads the objects the push brought (push-session.ts moves them into the
    // served repository); rebuilt from the hub's records instead, the repository has the very same commit.
    const adopted = join(hub.dir, "many-clone");
    await ok(["clone", "--quiet", withToken("/alice/many"), adopted]);
    expect(await head(adopted)).toBe(await head(work));
    rmSync(join(hub.dataDir, "git"), { recursive: true, force: true });
    const rebuilt = join(hub.dir, "many-rebuilt");
    await ok(["clone", "--quiet", withToken("/alice/many"), rebuilt]);
    expect(await head(rebuilt)).toBe(await head(work));
    expect(
      readFileSync(join(rebuilt, "shard-3/sub 5/file-503.txt")).equals(
        expected.get("shard-3/sub 5/file-503.txt")!,
      ),
    ).toBe(true);
  }, 300_000);

  it(`pushes a ${LFS_MB} MiB LFS file with git-lfs; huggingface_hub and a fresh clone get it byte-identical`, async () => {
    await createRepo("big");
    const work = join(hub.dir, "big");
    await ok(["clone", "--quiet", withToken("/alice/big"), work], { lfs: true });
    await ok(["lfs", "track", "*.bin"], { cwd: work, lfs: true });
    const step = timer(`${LFS_MB} MiB LFS file`);
    const sha256 = await writeBigFile(join(work, "model.bin"), LFS_MB);
    step("written");
    await ok(["add", "."], { cwd: work, lfs: true });
    await ok(["commit", "--quiet", "-m", "big weights"], { cwd: work, lfs: true });
    step("git add and commit (git-lfs's clean filter)");
    await ok(["push", "--quiet", "origin", "main"], { cwd: work, lfs: true, env: credentials() });
    step("git push");
    const pushed = await head(work);
    expect(await hubSha("alice/big")).toBe(pushed);
    // The working tree and git-lfs's copy in it are not needed again.
    rmSync(work, { recursive: true, force: true });

    const downloaded = await python(
      "from huggingface_hub import hf_hub_download\nprint(hf_hub_download('alice/big', 'model.bin'))",
    );
    step("hf_hub_download");
    expect(await sha256OfFile(downloaded)).toBe(sha256);
    rmSync(realpathSync(downloaded));

    const again = join(hub.dir, "big-clone");
    await ok(["clone", "--quiet", withToken("/alice/big"), again], { lfs: true });
    step("git clone with git-lfs");
    expect(await sha256OfFile(join(again, "model.bin"))).toBe(sha256);
    expect(await head(again)).toBe(pushed);
    rmSync(again, { recursive: true, force: true });
  }, 900_000);
});

describe("refs a push may not touch", () => {
  it("refuses other refs, a pull request that is not open and an annotated tag, moving nothing", async () => {
    await createRepo("refs");
    const work = join(hub.dir, "refs");
    await ok(["clone", "--quiet", withToken("/alice/refs"), work]);
    writeFileSync(join(work, "a.txt"), "a\n");
    await ok(["add", "."], { cwd: work });
    await ok(["commit", "--quiet", "-m", "a"], { cwd: work });
    const before = await hubSha("alice/refs");
    const refused = async (refspec: string, message: RegExp) => {
      const result = await git(["push", "origin", refspec], { cwd: work });
      expect(result.code, result.stderr).not.toBe(0);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toMatch(/\[remote rejected\]/);
    };
    await refused("HEAD:refs/notes/commits", /refs\/notes\/commits cannot be pushed/);
    await refused("HEAD:refs/pr/7", /refs\/pr\/7 does not exist: open the pull request/);
    await ok(["tag", "-a", "v1", "-m", "annotated"], { cwd: work });
    await refused("refs/tags/v1", /annotated tag/);
    expect(await hubSha("alice/refs")).toBe(before);
  }, 120_000);
});

describe("what huggingface_hub uploads, git clones", () => {
  it("clones byte-identical what upload_folder sent through Git LFS and upload_file through Xet; git lfs pull gets both", async () => {
    await createRepo("uploaded");
    const folder = join(hub.dir, "to-upload");
    mkdirSync(join(folder, "nested"), { recursive: true });
    const small = randomBytes(3000);
    const lfsBytes = randomBytes(12 * 1024 * 1024);
    const xetBytes = randomBytes(3 * 1024 * 1024);
    writeFileSync(join(folder, "nested", "small.bin"), small);
    writeFileSync(join(folder, "weights.safetensors"), lfsBytes);
    writeFileSync(join(hub.dir, "xet.safetensors"), xetBytes);
    const xorbsBefore = xorbUploads();
    await python(
      `from huggingface_hub import upload_folder\nupload_folder(repo_id='alice/uploaded', folder_path=${JSON.stringify(folder)})`,
    );
    expect(xorbUploads(), "upload_folder with HF_HUB_DISABLE_XET=1 uploads through Git LFS").toBe(
      xorbsBefore,
    );
    await python(
      `from huggingface_hub import upload_file\nupload_file(repo_id='alice/uploaded', path_or_fileobj=${JSON.stringify(join(hub.dir, "xet.safetensors"))}, path_in_repo='xet.safetensors')`,
      {},
      true,
    );
    expect(xorbUploads(), "upload_file with hf_xet uploads through Xet").toBeGreaterThan(xorbsBefore);

    const cloned = join(hub.dir, "uploaded-clone");
    await ok(["clone", "--quiet", withToken("/alice/uploaded"), cloned], {
      lfs: true,
      env: { GIT_LFS_SKIP_SMUDGE: "1" },
    });
    expect(await head(cloned)).toBe(await hubSha("alice/uploaded"));
    // Without smudging, the LFS files are their pointers, as the public hub's tree holds them.
    expect(readFileSync(join(cloned, "weights.safetensors"), "utf8")).toMatch(/^version https:\/\/git-lfs/);
    await ok(["lfs", "pull"], { cwd: cloned, lfs: true, env: credentials() });
    expect(readFileSync(join(cloned, "nested", "small.bin")).equals(small)).toBe(true);
    expect(readFileSync(join(cloned, "weights.safetensors")).equals(lfsBytes)).toBe(true);
    expect(readFileSync(join(cloned, "xet.safetensors")).equals(xetBytes)).toBe(true);
  }, 600_000);
});
