/**
 * BLAKE3 backends of the hub (apps/hub/src/lfs-xet/blake3.ts; issue 34): the CPU time each takes to hash
 * BENCH_FILE_MB (256) of random bytes cut into Xet-sized chunks (8-128 KiB, 64 KiB on average, as the
 * chunker cuts them) with the chunk key, as a cold mirror pull or an upload does. CPU time of this process
 * (process.cpuUsage), so the figure holds on a loaded machine; best of BENCH_ROUNDS (3) per backend.
 *
 *   npm run bench:blake3 -w bench
 */
import { randomBytes } from "node:crypto";
import { type Blake3Backend, keyedBlake3 } from "../../apps/hub/src/lfs-xet/blake3.js";

const FILE_MB = Number(process.env.BENCH_FILE_MB ?? 256);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const data = randomBytes(FILE_MB * 1024 * 1024);

// Chunk lengths spread between the chunker's bounds around its 64 KiB target.
const chunks: Uint8Array[] = [];
for (let at = 0, i = 0; at < data.length; i++) {
  const length = Math.min(8192 + ((i * 40_503) % (2 * 65_536 - 2 * 8192)), data.length - at);
  chunks.push(data.subarray(at, at + length));
  at += length;
}

const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;

console.log(
  `## BLAKE3 of ${FILE_MB} MiB in ${chunks.length} chunks, best of ${ROUNDS}, node ${process.version}`,
);
console.log();
console.log("| backend | CPU s | MiB/s of CPU |");
console.log("| --- | --- | --- |");
for (const backend of ["wasm", "native"] as Blake3Backend[]) {
  const hash = await keyedBlake3(randomBytes(32), backend);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage();
    for (const chunk of chunks) hash(chunk);
    best = Math.min(best, cpuSeconds(process.cpuUsage(before)));
  }
  console.log(`| ${backend} | ${best.toFixed(3)} | ${(FILE_MB / best).toFixed(0)} |`);
}
