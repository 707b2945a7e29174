import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { pseudoRandomBytes } from "./__fixtures__/bytes.js";
import { Chunker, chunkRanges, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE } from "./chunker.js";
import { hashToHex, loadXetHashing } from "./hashes.js";

const VENV_PYTHON = fileURLToPath(new URL("../../../../.venv/bin/python", import.meta.url));

describe("content-defined chunking", () => {
  const data = pseudoRandomBytes(3_000_000, 7);
  const ranges = chunkRanges(data);

  it("covers the input with chunks between the minimum and maximum size (the last may be short)", () => {
    expect(ranges[0]?.start).toBe(0);
    expect(ranges.at(-1)?.end).toBe(data.length);
    for (const [i, r] of ranges.entries()) {
      if (i > 0) expect(r.start).toBe(ranges[i - 1]?.end);
      expect(r.end - r.start).toBeLessThanOrEqual(MAX_CHUNK_SIZE);
      if (i < ranges.length - 1) expect(r.end - r.start).toBeGreaterThanOrEqual(MIN_CHUNK_SIZE);
    }
    // ~64 KiB on average for random data.
    expect(data.length / ranges.length).toBeGreaterThan(40_000);
    expect(data.length / ranges.length).toBeLessThan(100_000);
  });

  it("gives the same boundaries however the input is split", () => {
    for (const piece of [1000, 65_537, 333_333]) {
      const chunker = new Chunker();
      const lengths: number[] = [];
      for (let at = 0; at < data.length; at += piece)
        lengths.push(...chunker.update(data.subarray(at, at + piece)));
      const last = chunker.finish();
      if (last !== undefined) lengths.push(last);
      expect(lengths).toEqual(ranges.map((r) => r.end - r.start));
    }
  });

  it("forces a boundary at the maximum size when no hash matches (constant input)", () => {
    expect(chunkRanges(new Uint8Array(300_000)).map((r) => r.end - r.start)).toEqual([131072, 131072, 37856]);
  });

  it("keeps boundaries after an edit: an insertion changes only the chunks around it", () => {
    const edited = new Uint8Array(data.length + 10);
    edited.set(data.subarray(0, 1_500_000));
    edited.set(data.subarray(1_500_000), 1_500_010);
    const before = new Set(
      ranges.filter((r) => r.end <= 1_400_000 || r.start >= 1_600_000).map((r) => r.end - r.start),
    );
    const after = chunkRanges(edited).map((r) => r.end - r.start);
    const shared = after.filter((len) => before.has(len)).length;
    expect(shared).toBeGreaterThan(ranges.length - 6);
  });

  it.skipIf(!existsSync(VENV_PYTHON))("hashes files exactly as the hf_xet client does", async () => {
    const hashing = await loadXetHashing();
    const dir = mkdtempSync(join(tmpdir(), "xet-chunker-"));
    const samples = [pseudoRandomBytes(5), pseudoRandomBytes(9000, 3), data];
    const paths = samples.map((bytes, i) => {
      const path = join(dir, `sample-${i}.bin`);
      writeFileSync(path, bytes);
      return path;
    });
    const script = "import hf_xet,sys; print('\\n'.join(i.hash for i in hf_xet.hash_files(sys.argv[1:])))";
    const expected = execFileSync(VENV_PYTHON, ["-c", script, ...paths], { encoding: "utf8" })
      .trim()
      .split("\n");
    const ours = samples.map((bytes) =>
      hashToHex(
        hashing.fileHash(
          chunkRanges(bytes).map((r) => ({
            hash: hashing.chunkHash(bytes.subarray(r.start, r.end)),
            size: r.end - r.start,
          })),
        ),
      ),
    );
    expect(ours).toEqual(expected);
  });
});
