import type { ScanSource } from "./scan-report.js";

/** A header or a member that ends past the end of the file: the scanners turn it into "could not scan". */
export class TruncatedError extends Error {}

/**
 * Reads `length` bytes at `start` of a scan source into one buffer. Scanners use it for headers and small
 * members only (the callers bound `length`); the content itself stays streamed.
 */
export async function readRange(source: ScanSource, start: number, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  if (start + length > source.size) {
    throw new TruncatedError(
      `wanted bytes ${start}..${start + length - 1} but the file has ${source.size} bytes`,
    );
  }
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const chunk of source.open({ start, end: start + length - 1 })) {
    const bytes = chunk as Buffer;
    chunks.push(bytes);
    got += bytes.length;
  }
  if (got < length)
    throw new TruncatedError(`read ${got} of ${length} bytes at ${start}: the content ended early`);
  return Buffer.concat(chunks, got).subarray(0, length);
}
