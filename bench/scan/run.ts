/**
 * The scanner benchmark (issue 35): scanning a 2 GiB (BENCH_SCAN_MB) PyTorch-format zip archive, mostly tensor
 * bytes in stored members, beside the floor of reading the same file (`cat file > /dev/null` and a bare Node
 * stream read), MiB/s and peak RSS above the start; the same for a 1 GiB (BENCH_RAW_MB) raw pickle, which the
 * scanner must read whole; and 1,000 small files (pickles at protocols 0-5 and small PyTorch zips) scanned one
 * after another. The files are made by Python's zipfile and pickle in a temporary directory.
 */
import { execFile } from "node:child_process";
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scanFile } from "../../apps/hub/src/scanning/scan-file.js";
import type { ScanSource } from "../../apps/hub/src/scanning/scan-report.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const VENV_PYTHON = join(HERE, "..", "..", ".venv", "bin", "python");
const ARCHIVE_MB = Number(process.env.BENCH_SCAN_MB ?? 2048);
const RAW_MB = Number(process.env.BENCH_RAW_MB ?? 1024);
const SMALL_FILES = Number(process.env.BENCH_SMALL_FILES ?? 1000);
const MIB = 1024 * 1024;

const MAKE_FILES = `
import io, os, pickle, struct, sys, zipfile, collections, random
out, archive_mb, raw_mb, small = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
block = random.Random(1).randbytes(MIB := 1 << 20)

import types
torch = sys.modules["torch"] = types.ModuleType("torch")  # torch is not installed: a stand-in for the global
class FloatStorage: pass
FloatStorage.__module__ = "torch"
torch.FloatStorage = FloatStorage
class Storage:
    def __init__(self, key, numel): self.key, self.numel = key, numel
class Pickler(pickle.Pickler):
    def persistent_id(self, obj):
        return ("storage", FloatStorage, obj.key, "cpu", obj.numel) if isinstance(obj, Storage) else None
def data_pkl(storages):
    state = collections.OrderedDict((f"layer{i}.weight", s) for i, s in enumerate(storages))
    buffer = io.BytesIO(); Pickler(buffer, protocol=2).dump(state); return buffer.getvalue()

def torch_zip(path, total_mb, member_mb):
    count = max(1, total_mb // member_mb)
    storages = [Storage(str(i), member_mb * MIB // 4) for i in range(count)]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", data_pkl(storages))
        z.writestr("archive/byteorder", "little")
        for s in storages:
            with z.open(f"archive/data/{s.key}", "w", force_zip64=True) as member:
                for _ in range(member_mb): member.write(block)
        z.writestr("archive/version", "3\\n")

torch_zip(os.path.join(out, "model.pt"), archive_mb, 64)
with open(os.path.join(out, "raw.pkl"), "wb") as f:
    # protocol 4, BINBYTES8 of raw_mb MiB, STOP: one payload the scanner reads through.
    f.write(b"\\x80\\x04\\x8e" + struct.pack("<Q", raw_mb * MIB))
    for _ in range(raw_mb): f.write(block)
    f.write(b".")
os.makedirs(os.path.join(out, "small"))
for i in range(small):
    path = os.path.join(out, "small", f"f{i:04d}")
    if i % 10 == 0:
        torch_zip(path + ".pt", 1, 1)
    else:
        with open(path + ".pkl", "wb") as f:
            pickle.dump({"weights": [float(j) for j in range(200)], "name": f"model-{i}", "i": i}, f, protocol=i % 6)
`;

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} failed: ${stderr || error.message}`)) : resolve(stdout),
    ),
  );
}

function fileSource(path: string): ScanSource {
  return {
    path,
    size: statSync(path).size,
    open: (range) => createReadStream(path, range ? { start: range.start, end: range.end } : {}),
  };
}

/** Wall seconds of `work` and the process's peak RSS above its start meanwhile (MiB), sampled every 5 ms. */
async function measure(work: () => Promise<unknown>): Promise<{ seconds: number; peakMiB: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const began = performance.now();
  await work();
  const seconds = (performance.now() - began) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { seconds, peakMiB: (peak - start) / MIB };
}

async function nodeRead(path: string): Promise<number> {
  let bytes = 0;
  for await (const chunk of createReadStream(path)) bytes += (chunk as Buffer).length;
  return bytes;
}

function row(
  label: string,
  size: number,
  result: { seconds: number; peakMiB: number },
  floor?: number,
): string {
  const rate = size / MIB / result.seconds;
  const ratio = floor ? ` | ${(rate / floor).toFixed(2)}x` : " | ";
  return `| ${label} | ${result.seconds.toFixed(3)} s | ${rate.toFixed(0)} MiB/s${ratio} | ${result.peakMiB.toFixed(1)} MiB |`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-scan-"));
  try {
    process.stderr.write(
      `making a ${ARCHIVE_MB} MiB archive, a ${RAW_MB} MiB pickle, ${SMALL_FILES} small files in ${dir}\n`,
    );
    await run(VENV_PYTHON, ["-c", MAKE_FILES, dir, String(ARCHIVE_MB), String(RAW_MB), String(SMALL_FILES)]);
    const archive = join(dir, "model.pt");
    const raw = join(dir, "raw.pkl");
    console.log(
      `# scan benchmark, ${new Date().toISOString()}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n`,
    );
    console.log("| what | time | throughput | vs the Node read | peak RSS above start |");
    console.log("| --- | --- | --- | --- | --- |");
    for (const [label, path] of [
      ["PyTorch zip", archive],
      ["raw pickle", raw],
    ] as const) {
      const size = statSync(path).size;
      // Warm the page cache first so every line reads from memory alike.
      await run("sh", ["-c", `cat '${path}' > /dev/null`]);
      const cat = await measure(() => run("sh", ["-c", `cat '${path}' > /dev/null`]));
      const node = await measure(() => nodeRead(path));
      const floor = size / MIB / node.seconds;
      let verdict = "";
      const scan = await measure(async () => {
        verdict = (await scanFile(fileSource(path))).verdict;
      });
      console.log(
        row(
          `${label} ${(size / MIB).toFixed(0)} MiB: cat > /dev/null (RSS is this process's)`,
          size,
          cat,
          floor,
        ),
      );
      console.log(row(`${label}: bare Node stream read`, size, node, floor));
      console.log(row(`${label}: scanFile (verdict ${verdict})`, size, scan, floor));
    }
    const smallDir = join(dir, "small");
    const names = readdirSync(smallDir);
    const verdicts = new Map<string, number>();
    const small = await measure(async () => {
      for (const name of names) {
        const report = await scanFile(fileSource(join(smallDir, name)));
        verdicts.set(report.verdict, (verdicts.get(report.verdict) ?? 0) + 1);
      }
    });
    console.log(
      `\n${names.length} small files scanned one after another: ${small.seconds.toFixed(2)} s ` +
        `(${((small.seconds * 1000) / names.length).toFixed(2)} ms each), peak RSS above start ${small.peakMiB.toFixed(1)} MiB, ` +
        `verdicts ${JSON.stringify(Object.fromEntries(verdicts))}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
