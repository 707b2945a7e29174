import { readFileSync } from "node:fs";
import { chunkRanges } from "./chunker.js";
import { hashToHex, loadXetHashing } from "./hashes.js";

const h = await loadXetHashing();
const data = readFileSync(process.argv[2]!);
const t0 = performance.now();
const ranges = chunkRanges(data);
const t1 = performance.now();
const leaves = ranges.map((r) => ({
  hash: h.chunkHash(data.subarray(r.start, r.end)),
  size: r.end - r.start,
}));
const t2 = performance.now();
console.log(
  hashToHex(h.fileHash(leaves)),
  ranges.length,
  `chunk ${(data.length / 1e6 / ((t1 - t0) / 1000)).toFixed(0)}MB/s hash ${(data.length / 1e6 / ((t2 - t1) / 1000)).toFixed(0)}MB/s`,
);
