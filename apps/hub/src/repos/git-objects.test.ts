import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { buildTreeIds, gitBlobId, gitCommitId } from "./git-objects.js";
import { DEFAULT_GITATTRIBUTES, lfsPatterns, matchesLfsPattern } from "./gitattributes.js";
import { lfsPointerSize, lfsPointerText } from "./lfs-pointer.js";
import { parseRepoPath } from "./repo-path.js";

let temp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => temp?.remove());

/** Runs git with a fixed identity and date so that its ids are reproducible. */
function git(cwd: string, args: string[], env: Record<string, string> = {}) {
  return execFileSync("git", args, { cwd, env: { ...process.env, ...env }, encoding: "utf8" }).trim();
}

describe("git object ids", () => {
  it("computes blob, tree and commit ids exactly as git does", () => {
    temp = makeTempDir();
    const files: Record<string, string> = {
      "README.md": "# hello\n",
      "config.json": '{"a":1}\n',
      "sub/dir/x.txt": "x",
      "sub/y.txt": "y",
      "sub-file": "dash sorts before slash",
      "sub.txt": "dot",
    };
    git(temp.dir, ["init", "-q"]);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(temp.dir, path)), { recursive: true });
      writeFileSync(join(temp.dir, path), content);
    }
    git(temp.dir, ["add", "-A"]);
    const date = "1700000000 +0000";
    const identity = {
      GIT_AUTHOR_NAME: "alice",
      GIT_AUTHOR_EMAIL: "alice@users.noreply.modelhub",
      GIT_COMMITTER_NAME: "alice",
      GIT_COMMITTER_EMAIL: "alice@users.noreply.modelhub",
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    };
    git(temp.dir, ["commit", "-q", "--no-gpg-sign", "-m", "Initial commit", "-m", "with a body"], identity);
    const snapshot = new Map(
      Object.entries(files).map(([path, content]) => [path, gitBlobId(Buffer.from(content))]),
    );
    for (const [path, oid] of snapshot) expect(git(temp.dir, ["rev-parse", `HEAD:${path}`])).toBe(oid);
    const trees = buildTreeIds(snapshot);
    expect(trees.get("")).toBe(git(temp.dir, ["rev-parse", "HEAD^{tree}"]));
    expect(trees.get("sub")).toBe(git(temp.dir, ["rev-parse", "HEAD:sub"]));
    expect(trees.get("sub/dir")).toBe(git(temp.dir, ["rev-parse", "HEAD:sub/dir"]));
    const commit = gitCommitId({
      tree: trees.get("")!,
      parents: [],
      author: { name: "alice", email: "alice@users.noreply.modelhub" },
      time: 1700000000,
      message: "Initial commit\n\nwith a body",
    });
    expect(commit).toBe(git(temp.dir, ["rev-parse", "HEAD"]));
  });

  it("writes LFS pointers in the spec's format", () => {
    const oid = "a".repeat(64);
    expect(lfsPointerText(oid, 42)).toBe(
      `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 42\n`,
    );
    expect(lfsPointerSize(oid, 42)).toBe(lfsPointerText(oid, 42).length);
  });
});

describe(".gitattributes LFS patterns", () => {
  const patterns = lfsPatterns(`${DEFAULT_GITATTRIBUTES}# comment\nweights/*.dat filter=lfs\n*.txt text\n`);
  it.each([
    ["model.safetensors", true],
    ["deep/dir/model.safetensors", true],
    ["events.out.tfevents.123", true],
    ["saved_model/variables/data", true],
    ["archive.tar.gz", true],
    ["weights/a.dat", true],
    ["other/weights/a.dat", false],
    ["notes.txt", false],
    ["config.json", false],
  ])("%s -> %s", (path, expected) => {
    expect(matchesLfsPattern(path, patterns)).toBe(expected);
  });
});

describe("repository paths", () => {
  it.each([
    ["../etc/passwd", "reserved"],
    ["a/../b", "reserved"],
    ["/abs", "absolute"],
    ["a\\b", "backslashes"],
    ["a\u0000b", "NUL"],
    ["a//b", "empty"],
    [".git/config", "reserved"],
    ["x".repeat(300), "longer than 255"],
    [`${"d/".repeat(600)}f`, "longer than 1024"],
  ])("refuses %j", (path, why) => {
    expect(() => parseRepoPath(path)).toThrow(why);
  });
  it("accepts ordinary paths, dots inside names included", () => {
    expect(parseRepoPath("a/b.c/.hidden/..x")).toBe("a/b.c/.hidden/..x");
  });
  it("checks a hostile segment in one pass", () => {
    // g's then i's with no t: a backtracking /g.*i.*t/ took ~120 ms on this 1 KiB path, anyone's to send.
    const hostile = `${"g".repeat(512)}${"i".repeat(511)}`;
    const started = performance.now();
    expect(() => parseRepoPath(hostile)).toThrow("longer than 255");
    expect(performance.now() - started).toBeLessThan(20);
    expect(() => parseRepoPath("a/GIT~3/b")).toThrow("reserved");
    expect(() => parseRepoPath("a/.g\u200cIt. /b")).toThrow("reserved");
  });
});
