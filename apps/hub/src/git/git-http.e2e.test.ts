import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import { type GitOptions, runGit, runGitOk } from "./__fixtures__/run-git.js";

const hub = useTestHub();
let aliceToken: string;
let bobToken: string;
/** The LFS object of the private repository: bob may not get it through a public repository's batch. */
let privateOid: string;
const weights = randomBytes(300_000);
const weightsOid = createHash("sha256").update(weights).digest("hex");

const git = (args: string[], options: GitOptions = {}) => runGit(hub.dir, args, options);
const ok = (args: string[], options: GitOptions = {}) => runGitOk(hub.dir, args, options);

/** The hub's URL with a token as the Basic password (what `git clone https://user:token@...` sends). */
const withToken = (token: string, path: string) => hub.url.replace("://", `://git:${token}@`) + path;

async function api(path: string, init: RequestInit & { token?: string } = {}) {
  const { token = aliceToken, ...rest } = init;
  return fetch(`${hub.url}${path}`, {
    ...rest,
    headers: { Authorization: `Bearer ${token}`, ...(rest.headers as Record<string, string>) },
  });
}

async function createRepo(type: string, name: string, extra: Record<string, unknown> = {}) {
  const response = await api("/api/repos/create", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type, name, organization: "alice", ...extra }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Commits inline files and LFS files (already uploaded) to a repository's main branch. */
async function commit(
  apiPath: string,
  files: Record<string, string>,
  lfs: { path: string; oid: string; size: number }[] = [],
) {
  const lines = [
    { key: "header", value: { summary: `update ${Object.keys(files).join(", ")}` } },
    ...Object.entries(files).map(([path, content]) => ({
      key: "file",
      value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
    })),
    ...lfs.map((file) => ({ key: "lfsFile", value: { algo: "sha256", ...file } })),
  ];
  const response = await api(`${apiPath}/commit/main`, {
    method: "POST",
    headers: { "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Uploads bytes through the hub's Git LFS path (batch, then the signed upload URL). */
async function uploadLfs(gitPath: string, content: Buffer): Promise<string> {
  const oid = createHash("sha256").update(content).digest("hex");
  const batch = await lfsBatch(gitPath, "upload", oid, content.byteLength, aliceToken);
  const href = batch.objects[0]?.actions?.upload?.href;
  if (href) expect((await fetch(href, { method: "PUT", body: new Uint8Array(content) })).status).toBe(200);
  return oid;
}

interface BatchAnswer {
  objects: { oid: string; actions?: Record<string, { href: string }>; error?: { code: number } }[];
}

async function lfsBatch(gitPath: string, operation: string, oid: string, size: number, token?: string) {
  const response = await fetch(`${hub.url}${gitPath}/info/lfs/objects/batch`, {
    method: "POST",
    headers: {
      Accept: "application/vnd.git-lfs+json",
      "Content-Type": "application/vnd.git-lfs+json",
      ...(token ? { Authorization: `Basic ${Buffer.from(`git:${token}`).toString("base64")}` } : {}),
    },
    body: JSON.stringify({ operation, transfers: ["basic"], objects: [{ oid, size }] }),
  });
  return { status: response.status, ...((await response.json()) as BatchAnswer) };
}

async function hubSha(apiPath: string): Promise<string> {
  return ((await (await api(apiPath)).json()) as { sha: string }).sha;
}

beforeAll(async () => {
  const accounts = accountsService(hub.store.accounts);
  await accounts.createUser({ name: "alice" });
  aliceToken = (await accounts.createToken("alice", { name: "git", role: "write" })).token;
  await accounts.createUser({ name: "bob" });
  bobToken = (await accounts.createToken("bob", { name: "git", role: "write" })).token;
  mkdirSync(join(hub.dir, "home-plain"));
  mkdirSync(join(hub.dir, "home-lfs"));
  await ok(["lfs", "install", "--skip-repo"], { lfs: true });

  await createRepo("model", "open-model");
  await uploadLfs("/alice/open-model.git", weights);
  await commit(
    "/api/models/alice/open-model",
    { "README.md": "# open\n", "dir/a b.txt": "spaced\n", "ünï.txt": "names\n" },
    [{ path: "weights.bin", oid: weightsOid, size: weights.byteLength }],
  );
  await commit("/api/models/alice/open-model", { "config.json": '{"a":1}\n' });
  expect((await api("/api/models/alice/open-model/branch/dev", { method: "POST" })).status).toBe(200);

  await createRepo("model", "secret-model", { private: true });
  const secret = randomBytes(1000);
  privateOid = await uploadLfs("/alice/secret-model.git", secret);
  await commit("/api/models/alice/secret-model", { "secret.txt": "hidden\n" }, [
    { path: "secret.bin", oid: privateOid, size: secret.byteLength },
  ]);

  await createRepo("model", "gated-model");
  await commit("/api/models/alice/gated-model", { "terms.txt": "agree\n" });
  const gate = await api("/api/models/alice/gated-model/settings", {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ gated: "manual" }),
  });
  expect(gate.status, await gate.clone().text()).toBe(200);

  await createRepo("dataset", "table");
  await commit("/api/datasets/alice/table", { "data.csv": "a,b\n1,2\n" });
  await createRepo("space", "demo", { sdk: "static" });
}, 60_000);

describe("git clone over smart HTTP", () => {
  it("clones a public model (plain and .git, v2 and v0) with the hub's commit ids and LFS pointers", async () => {
    await ok(["clone", "--quiet", `${hub.url}/alice/open-model`, "plain"]);
    const cloned = join(hub.dir, "plain");
    expect((await ok(["rev-parse", "HEAD"], { cwd: cloned })).trim()).toBe(
      await hubSha("/api/models/alice/open-model"),
    );
    expect(readFileSync(join(cloned, "dir/a b.txt"), "utf8")).toBe("spaced\n");
    expect(readFileSync(join(cloned, "ünï.txt"), "utf8")).toBe("names\n");
    // Without git-lfs the LFS file is its pointer, as the public hub's tree holds it.
    expect(readFileSync(join(cloned, "weights.bin"), "utf8")).toContain(`oid sha256:${weightsOid}`);
    // Every commit of the history is the hub's.
    const hubCommits = (await (await api("/api/models/alice/open-model/commits/main")).json()) as {
      id: string;
    }[];
    expect((await ok(["log", "--format=%H"], { cwd: cloned })).trim().split("\n")).toEqual(
      hubCommits.map((commit) => commit.id),
    );

    await ok(["-c", "protocol.version=0", "clone", "--quiet", `${hub.url}/alice/open-model.git`, "v0"]);
    expect((await ok(["rev-parse", "HEAD"], { cwd: join(hub.dir, "v0") })).trim()).toBe(
      await hubSha("/api/models/alice/open-model"),
    );
  }, 60_000);

  it("ls-remote lists the hub's branches with their ids", async () => {
    const listed = await ok(["ls-remote", `${hub.url}/alice/open-model`]);
    const refs = (await (await api("/api/models/alice/open-model/refs")).json()) as {
      branches: { ref: string; targetCommit: string }[];
    };
    for (const branch of refs.branches) expect(listed).toContain(`${branch.targetCommit}\t${branch.ref}`);
    expect(listed).toContain("refs/heads/dev");
    expect(listed).toMatch(/\tHEAD\n/);
  }, 30_000);

  it("clones shallow, a dataset and a space", async () => {
    await ok(["clone", "--quiet", "--depth", "1", `${hub.url}/alice/open-model`, "shallow"]);
    expect((await ok(["rev-list", "--count", "HEAD"], { cwd: join(hub.dir, "shallow") })).trim()).toBe("1");
    await ok(["clone", "--quiet", `${hub.url}/datasets/alice/table`, "dataset"]);
    expect(readFileSync(join(hub.dir, "dataset/data.csv"), "utf8")).toBe("a,b\n1,2\n");
    await ok(["clone", "--quiet", `${hub.url}/spaces/alice/demo.git`, "space"]);
    expect(readFileSync(join(hub.dir, "space/README.md"), "utf8")).toContain("sdk: static");
  }, 60_000);

  it("gets LFS content on clone with git-lfs (Basic credentials in the URL of a private repository)", async () => {
    await ok(["clone", "--quiet", `${hub.url}/alice/open-model`, "with-lfs"], { lfs: true });
    expect(readFileSync(join(hub.dir, "with-lfs/weights.bin")).equals(weights)).toBe(true);
    await ok(["clone", "--quiet", withToken(aliceToken, "/alice/secret-model"), "secret-lfs"], { lfs: true });
    expect(readFileSync(join(hub.dir, "secret-lfs/secret.txt"), "utf8")).toBe("hidden\n");
    expect(
      createHash("sha256")
        .update(readFileSync(join(hub.dir, "secret-lfs/secret.bin")))
        .digest("hex"),
    ).toBe(privateOid);
  }, 60_000);

  it("git pull fetches a commit made on the hub afterwards", async () => {
    await ok(["clone", "--quiet", `${hub.url}/alice/open-model`, "follower"]);
    await commit("/api/models/alice/open-model", { "later.txt": "new\n" });
    await ok(["pull", "--quiet", "--ff-only"], { cwd: join(hub.dir, "follower") });
    // The bare copies are a cache: one deleted while the hub runs is rebuilt on the next request.
    rmSync(join(hub.dataDir, "git"), { recursive: true, force: true });
    await ok(["fetch", "--quiet"], { cwd: join(hub.dir, "follower") });
    expect(readFileSync(join(hub.dir, "follower/later.txt"), "utf8")).toBe("new\n");
    expect((await ok(["rev-parse", "HEAD"], { cwd: join(hub.dir, "follower") })).trim()).toBe(
      await hubSha("/api/models/alice/open-model"),
    );
  }, 60_000);
});

describe("what git may not read", () => {
  it("asks for credentials on a private repository (401 with Basic) and does not tell it from a missing one", async () => {
    const refused = await git(["clone", "--quiet", `${hub.url}/alice/secret-model`, "no-token"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/could not read Username|Authentication failed/);
    const asked = await fetch(`${hub.url}/alice/secret-model/info/refs?service=git-upload-pack`);
    const missing = await fetch(`${hub.url}/alice/no-such-model/info/refs?service=git-upload-pack`);
    expect([asked.status, missing.status]).toEqual([401, 401]);
    expect(asked.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
    expect((await asked.text()).replaceAll("secret-model", "X")).toBe(
      (await missing.text()).replaceAll("no-such-model", "X"),
    );
  }, 30_000);

  it("refuses another user's private repository and a gated one without a grant, and says why", async () => {
    const other = await git(["clone", "--quiet", withToken(bobToken, "/alice/secret-model"), "bob-secret"]);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/not found|404/i);
    const post = await fetch(`${hub.url}/alice/secret-model/git-upload-pack`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${bobToken}`,
        "Content-Type": "application/x-git-upload-pack-request",
      },
      body: "0000",
    });
    expect(post.status).toBe(404);
    const gated = await git(["clone", "--quiet", withToken(bobToken, "/alice/gated-model"), "bob-gated"]);
    expect(gated.code).not.toBe(0);
    expect(gated.stderr).toMatch(/remote: .*(gated|restricted|access)/i);
    // The owner clones it.
    await ok(["clone", "--quiet", withToken(aliceToken, "/alice/gated-model"), "alice-gated"]);
  }, 30_000);

  it("answers an LFS download only for objects the repository's commits reference, to who may read them", async () => {
    const own = await lfsBatch("/alice/open-model.git", "download", weightsOid, weights.byteLength);
    const href = own.objects[0]?.actions?.download?.href;
    expect(href).toBeDefined();
    expect(Buffer.from(await (await fetch(href!)).arrayBuffer()).equals(weights)).toBe(true);
    // A forged URL is refused.
    expect((await fetch(`${href!.slice(0, -4)}AAAA`)).status).toBe(401);
    // Knowing the private object's hash does not make it downloadable through a public repository.
    const borrowed = await lfsBatch("/alice/open-model.git", "download", privateOid, 1000, bobToken);
    expect(borrowed.status).toBe(200);
    expect(borrowed.objects[0]?.actions).toBeUndefined();
    expect(borrowed.objects[0]?.error?.code).toBe(404);
    // The private repository itself: bob does not see it, anonymous callers are asked for credentials.
    expect((await lfsBatch("/alice/secret-model.git", "download", privateOid, 1000, bobToken)).status).toBe(
      404,
    );
    const anonymous = await fetch(`${hub.url}/alice/secret-model.git/info/lfs/objects/batch`, {
      method: "POST",
      headers: { "Content-Type": "application/vnd.git-lfs+json" },
      body: JSON.stringify({ operation: "download", objects: [{ oid: privateOid, size: 1000 }] }),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Basic/);
    // The gated repository without a grant.
    const gatedOid = createHash("sha256").update("agree\n").digest("hex");
    expect((await lfsBatch("/alice/gated-model.git", "download", gatedOid, 6, bobToken)).status).toBe(403);
  }, 30_000);

  it("asks for credentials before a push, and advertises the refs to a writer (git-push.e2e.test.ts pushes)", async () => {
    const anonymous = await fetch(`${hub.url}/alice/open-model/info/refs?service=git-receive-pack`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Basic/);
    const writer = await fetch(`${hub.url}/alice/open-model/info/refs?service=git-receive-pack`, {
      headers: { Authorization: `Basic ${Buffer.from(`git:${aliceToken}`).toString("base64")}` },
    });
    expect(writer.status).toBe(200);
    expect(writer.headers.get("content-type")).toBe("application/x-git-receive-pack-advertisement");
    expect(await writer.text()).toMatch(/^001f# service=git-receive-pack\n0000/);
  }, 30_000);
});
