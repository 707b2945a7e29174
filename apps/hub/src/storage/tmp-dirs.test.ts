import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTmpDir, TMP_STALE_MS } from "./tmp-dirs.js";

let temp: ReturnType<typeof makeTempDir>;
let tmpRoot: string;
beforeEach(() => {
  temp = makeTempDir();
  tmpRoot = join(temp.dir, "tmp");
  mkdirSync(tmpRoot);
});
afterEach(() => temp.remove());

/** A temporary directory named `name` holding a partial upload, last marked `ageMs` ago. */
function leftover(name: string, ageMs = 0): void {
  mkdirSync(join(tmpRoot, name));
  writeFileSync(join(tmpRoot, name, "partial"), "torn");
  const when = new Date(Date.now() - ageMs);
  utimesSync(join(tmpRoot, name), when, when);
}

/** The namespace part of the names this process gives its directories. */
async function ownKey(): Promise<string> {
  const own = await openTmpDir(tmpRoot);
  return own.split("/").at(-1)!.split("-")[0]!;
}

/** A PID that no process of this namespace has: a child that has exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

describe("temporary directories of the fs blob store", () => {
  it("removes at once a directory of this machine whose process is dead, however recent", async () => {
    const key = await ownKey();
    leftover(`${key}-${deadPid()}-0a0b0c`);
    await openTmpDir(tmpRoot);
    expect(readdirSync(tmpRoot).filter((name) => name.endsWith("-0a0b0c"))).toEqual([]);
  });

  it("keeps another live store's directory of this process, and a live process's", async () => {
    const key = await ownKey();
    leftover(`${key}-${process.pid}-1a1b1c`, TMP_STALE_MS / 2);
    leftover(`${key}-${process.ppid}-2a2b2c`, TMP_STALE_MS / 2);
    await openTmpDir(tmpRoot);
    expect(readdirSync(tmpRoot)).toEqual(
      expect.arrayContaining([`${key}-${process.pid}-1a1b1c`, `${key}-${process.ppid}-2a2b2c`]),
    );
  });

  it("keeps another machine's directory while its owner marks it, and removes it once it stops", async () => {
    const elsewhere = "0123456789abcdef-4242-3a3b3c";
    const silent = "fedcba9876543210-4242-4a4b4c";
    leftover(elsewhere, TMP_STALE_MS - 60_000);
    leftover(silent, TMP_STALE_MS + 60_000);
    leftover("legacy0123456789", TMP_STALE_MS + 60_000);
    await openTmpDir(tmpRoot);
    const left = readdirSync(tmpRoot);
    expect(left).toContain(elsewhere);
    expect(left).not.toContain(silent);
    expect(left).not.toContain("legacy0123456789");
  });
});
