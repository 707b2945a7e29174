import { execFile } from "node:child_process";
import { createReadStream, statSync } from "node:fs";
import { Readable } from "node:stream";
import { VENV_PYTHON } from "../../__fixtures__/python-client.js";
import type { ScanSource } from "../scan-report.js";

/** A scan source over a file on disk, streamed by range as the scan service does. */
export function fileSource(path: string, repoPath = path): ScanSource {
  return {
    path: repoPath,
    size: statSync(path).size,
    open: (range) => createReadStream(path, range ? { start: range.start, end: range.end } : {}),
  };
}

/**
 * A scan source over bytes in memory (for truncated and bit-flipped variants), in small chunks (a few bytes,
 * to put chunk boundaries inside a pickle's opcodes).
 */
export function bytesSource(bytes: Buffer, repoPath: string, chunkBytes = 4096): ScanSource {
  return {
    path: repoPath,
    size: bytes.length,
    open(range) {
      const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
      const chunks: Buffer[] = [];
      for (let at = 0; at < part.length; at += chunkBytes) chunks.push(part.subarray(at, at + chunkBytes));
      return Readable.from(chunks);
    },
  };
}

/** Runs a Python script in the project's virtualenv (files made by the real writers), failing loudly. */
export function runVenvPython(script: string, args: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(VENV_PYTHON, ["-c", script, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`python failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** Variants of a valid file that must never crash or hang a scanner: truncations and single-bit flips. */
export function damagedVariants(bytes: Buffer, flips = 24): Array<{ label: string; bytes: Buffer }> {
  const variants: Array<{ label: string; bytes: Buffer }> = [];
  for (const keep of [0, 1, 4, 8, 9, 16, 64, Math.floor(bytes.length / 2), bytes.length - 1]) {
    if (keep >= 0 && keep < bytes.length)
      variants.push({ label: `truncated to ${keep}`, bytes: bytes.subarray(0, keep) });
  }
  // Deterministic flips spread over the header-heavy start of the file.
  const span = Math.min(bytes.length, 4096);
  for (let i = 0; i < flips; i++) {
    const at = (i * 2654435761) % span;
    const flipped = Buffer.from(bytes);
    flipped.writeUInt8((flipped.readUInt8(at) ^ (1 << (i % 8))) & 0xff, at);
    variants.push({ label: `bit ${i % 8} flipped at ${at}`, bytes: flipped });
  }
  return variants;
}
