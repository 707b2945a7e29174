/**
 * Attack: path names that a client's working tree turns into something else. A file committed as `.GIT/config`
 * or `GIT~1/config` lands in `.git/config` when huggingface_hub or git downloads the repository onto a
 * case-insensitive (macOS, Windows) or 8.3-short-name (Windows) file system, where it can set hooks or a
 * fsmonitor command; two paths of one tree that differ only by case or Unicode normalization overwrite each
 * other there. Raw HTTP against a real hub on loopback: every such commit is refused with 400, naming the
 * path, and the branch does not move.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const hub = useTestHub();
let auth: Record<string, string>;
const REPO = "mallory/payload";

beforeAll(async () => {
  auth = { Authorization: `Bearer ${await userToken(hub.store, "mallory")}` };
  const created = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ name: REPO }),
  });
  expect(created.status, await created.text()).toBe(200);
  expect(
    (
      await commit("base files", [
        "config.json",
        "data/train.txt",
        "docs/Guide.md",
        "r\u00e9sum\u00e9/cv.txt",
      ])
    ).status,
  ).toBe(200);
});

/** Posts one commit (NDJSON, as huggingface_hub does) writing `paths` and deleting `deletions`. */
async function commit(title: string, paths: string[], deletions: string[] = []) {
  const lines = [
    { key: "header", value: { summary: title } },
    ...deletions.map((path) => ({ key: "deletedFile", value: { path } })),
    ...paths.map((path) => ({
      key: "file",
      value: {
        path,
        content: Buffer.from(`[core]\n\tfsmonitor = touch pwned\n`).toString("base64"),
        encoding: "base64",
      },
    })),
  ];
  const response = await fetch(`${hub.url}/api/models/${REPO}/commit/main`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  return { status: response.status, body: await response.text() };
}

async function treePaths(): Promise<string[]> {
  const response = await fetch(`${hub.url}/api/models/${REPO}/tree/main?recursive=true`, { headers: auth });
  expect(response.status).toBe(200);
  return ((await response.json()) as { path: string; type: string }[])
    .filter((entry) => entry.type === "file")
    .map((entry) => entry.path)
    .sort();
}

async function expectRefused(paths: string[], deletions: string[] = [], names = paths[paths.length - 1]!) {
  const before = await treePaths();
  const answer = await commit("attack", paths, deletions);
  expect(answer.status, answer.body).toBe(400);
  expect(await treePaths()).toEqual(before);
  const { error } = JSON.parse(answer.body) as { error: string };
  // The error says which path and why.
  expect(error).toContain(names);
  return { error };
}

describe("a .git directory in disguise", () => {
  it.each([
    ".GIT/config",
    ".gIt/hooks/post-checkout",
    ".Git",
    ".git./config",
    ".git../config",
    ".git /config",
    ".git . /config",
    "models/.GIT/config",
    ".git::$INDEX_ALLOCATION/config",
    ".git:stream",
    "GIT~1/config",
    "git~1/hooks/pre-commit",
    "Git~2/config",
    "GIT~1./config",
    // HFS+ ignores these code points when it compares names: ".git\u200c" is ".git" on a Mac.
    ".git\u200c/config",
    ".\u200dgit/config",
    ".g\u200eIT/config",
    "\ufeff.git/config",
    ".gi\u206ft/config",
    ".git\u202a/config",
  ])("refuses %j", async (path) => {
    const { error } = await expectRefused([path]);
    expect(error).toMatch(/\.git/);
  });

  it("still accepts names that only look alike", async () => {
    const fine = [
      ".gitattributes",
      ".github/workflows/ci.yml",
      ".gitignore",
      "my.git/x",
      ".git-blame-ignore-revs",
      "git~x/y",
      "gitx~1/z",
      "a.git",
    ];
    const answer = await commit("lookalikes", fine);
    expect(answer.status, answer.body).toBe(200);
    expect(await treePaths()).toEqual(expect.arrayContaining(fine));
  });
});

describe("two paths of one tree that a file system takes for one", () => {
  it("refuses case twins in one commit", async () => {
    const { error } = await expectRefused(["README.md", "Readme.md"]);
    expect(error).toMatch(/README\.md/);
  });

  it("refuses NFC/NFD twins in one commit", async () => {
    const nfc = "caf\u00e9.txt";
    const nfd = "cafe\u0301.txt";
    expect(nfc).not.toBe(nfd);
    await expectRefused([nfc, nfd]);
  });

  it("refuses a new file that is a twin of one already on the branch", async () => {
    const { error } = await expectRefused(["CONFIG.json"]);
    expect(error).toMatch(/config\.json/);
  });

  it("refuses a folder that is a twin of a folder on the branch", async () => {
    await expectRefused(["Data/eval.txt"]);
    await expectRefused(["docs/guide.md"]);
    // The same folder name, decomposed (NFD, as macOS writes names).
    await expectRefused(["re\u0301sume\u0301/other.txt"]);
  });

  it("refuses twins that differ by Unicode case folding beyond ASCII", async () => {
    await expectRefused(["stra\u00dfe.txt", "STRASSE.txt"]);
    await expectRefused(["\u03a3.txt", "\u03c3.txt"]);
  });

  it("accepts renaming a file to another case in one commit, and rewriting a file", async () => {
    const renamed = await commit("rename by case", ["Config.json"], ["config.json"]);
    expect(renamed.status, renamed.body).toBe(200);
    const rewritten = await commit("rewrite", ["Config.json", "data/train.txt"]);
    expect(rewritten.status, rewritten.body).toBe(200);
    expect(await treePaths()).toEqual(expect.arrayContaining(["Config.json", "data/train.txt"]));
    expect(await treePaths()).not.toContain("config.json");
  });
});
