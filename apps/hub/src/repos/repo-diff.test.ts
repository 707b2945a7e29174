import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import { gitBlobId } from "./git-objects.js";
import { changedFiles, diffFile, gitDiffSection } from "./repo-diff.js";
import type { FileRecord } from "./repos-table.js";

let temp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => temp?.remove());

const lines = (count: number, edit: (i: number) => string | undefined = (i) => `line ${i}`) =>
  Array.from({ length: count }, (_, i) => edit(i))
    .filter((line) => line !== undefined)
    .map((line) => `${line}\n`)
    .join("");

/** The hunks git itself prints for two versions of a file (`git diff --no-index`, headers dropped). */
function gitHunks(dir: string, before: string, after: string): string {
  writeFileSync(join(dir, "a.txt"), before);
  writeFileSync(join(dir, "b.txt"), after);
  const out = spawnSync("git", ["diff", "--no-index", "--no-color", "a.txt", "b.txt"], {
    cwd: dir,
    encoding: "utf8",
  });
  return out.stdout.slice(out.stdout.indexOf("@@"));
}

describe("repository diffs", () => {
  it("finds added, modified and deleted paths by blob id", () => {
    const file = (path: string, content: string): FileRecord => ({
      path,
      blobOid: gitBlobId(Buffer.from(content)),
      sha256: "0".repeat(64),
      size: content.length,
      lfs: false,
    });
    const changes = changedFiles(
      [file("a", "1"), file("b", "2"), file("c", "3")],
      [file("a", "1"), file("b", "two"), file("d", "4")],
    );
    expect(changes.map((change) => [change.path, change.status])).toEqual([
      ["b", "modified"],
      ["c", "deleted"],
      ["d", "added"],
    ]);
  });

  it("prints the same hunks as git diff, and binary files as git does", async () => {
    temp = makeTempDir();
    const blobs = await createFsBlobStore(join(temp.dir, "blobs"));
    const put = async (path: string, content: string | Buffer): Promise<FileRecord> => {
      const bytes = Buffer.from(content);
      const info = await blobs.put(Readable.from([bytes]));
      return { path, blobOid: gitBlobId(bytes), sha256: info.sha256, size: info.size, lfs: false };
    };
    const cases: [string, string][] = [
      [lines(40), lines(40, (i) => (i === 3 ? "changed" : i === 30 ? undefined : `line ${i}`))],
      [lines(5), `${lines(5)}appended\n`],
      ["no newline", "no newline\nat the end"],
      ["", lines(3)],
    ];
    for (const [before, after] of cases) {
      const change = {
        path: "a.txt",
        status: "modified" as const,
        before: await put("a.txt", before),
        after: await put("a.txt", after),
      };
      const diff = await diffFile(blobs, change);
      expect(diff.patch).toBe(gitHunks(temp.dir, before, after));
    }
    const binary = await diffFile(blobs, {
      path: "w.bin",
      status: "added",
      after: await put("w.bin", Buffer.from([0, 1, 2])),
    });
    expect(binary.binary).toBe(true);
    expect(gitDiffSection(binary)).toBe(
      `diff --git a/w.bin b/w.bin\nnew file mode 100644\nindex 0000000..${binary.newOid!.slice(0, 7)}\nBinary files /dev/null and b/w.bin differ\n`,
    );
  });
});
