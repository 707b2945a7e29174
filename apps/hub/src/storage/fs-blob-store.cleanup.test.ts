import * as fs from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import type { BlobStore } from "./blob-store.js";
import { createFsBlobStore } from "./fs-blob-store.js";

/**
 * A failed upload's temporary file, when the disk is slow to open it: stream.pipeline rejects as soon as the
 * source fails, before the file is even open. Removed then, the file opened a moment later would stay behind
 * (seen once in CI, under load: a refused Xet upload left its temporary file).
 */
const SLOW_OPEN_MS = 30;

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const slowOpen = ((...args: Parameters<typeof real.open>) => {
    setTimeout(() => (real.open as (...a: unknown[]) => void)(...args), SLOW_OPEN_MS);
  }) as typeof real.open;
  return {
    ...real,
    createWriteStream: (path: fs.PathLike, options?: Parameters<typeof real.createWriteStream>[1]) =>
      real.createWriteStream(path, {
        ...(typeof options === "object" ? options : {}),
        fs: { ...real, open: slowOpen },
      }),
  };
});

let temp: ReturnType<typeof makeTempDir>;
let store: BlobStore;
beforeEach(async () => {
  temp = makeTempDir();
  store = await createFsBlobStore(temp.dir);
});
afterEach(() => temp.remove());

describe("fs blob store on a disk slow to open files", () => {
  it("removes a failed upload's temporary file once it is closed, so none is left behind", async () => {
    const failing = (async function* () {
      yield Buffer.from("a small chunk");
      throw new Error("refused by the verifier");
    })();
    await expect(store.put(failing)).rejects.toThrow("refused by the verifier");
    // Whatever the file's open was still doing is over by now.
    await new Promise((resolve) => setTimeout(resolve, SLOW_OPEN_MS * 3));
    const tmpRoot = join(temp.dir, "tmp");
    expect(fs.readdirSync(tmpRoot).flatMap((dir) => fs.readdirSync(join(tmpRoot, dir)))).toEqual([]);
  });

  it("still stores what succeeds", async () => {
    const info = await store.put(
      (async function* () {
        yield Buffer.from("kept");
      })(),
    );
    expect(info.size).toBe(4);
    expect(await store.head(info.sha256)).toMatchObject({ size: 4 });
  });
});
