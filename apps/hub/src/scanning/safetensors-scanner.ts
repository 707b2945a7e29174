import { readRange, TruncatedError } from "./read-range.js";
import type { ContentScanner, ScanSource } from "./scan-report.js";

/**
 * Checks a safetensors header the way the reference reader (the `safetensors` crate's `validate`) does, so a
 * file that passes cannot send a reader out of bounds: the 8-byte little-endian header length within the file
 * and the format's 100 MB limit, the header a JSON object, every tensor's dtype known, its shape times the
 * dtype's size equal to its offsets' span, the tensors contiguous from the start of the data region to the
 * end of the file (no gaps, overlaps or trailing bytes), and `__metadata__` a map of strings.
 *
 * A malformed header is "could not scan", not "unsafe": safetensors has no code path to run code, and the
 * reference reader refuses such a file, so the honest answer is that we could not vouch for it.
 */

/** The format's own limit (the crate's MAX_HEADER_SIZE). */
export const MAX_SAFETENSORS_HEADER_BYTES = 100_000_000;

/** Bits per element of each dtype the safetensors crate knows (sub-byte float types included). */
const DTYPE_BITS: Record<string, number> = {
  BOOL: 8,
  F4: 4,
  F6_E2M3: 6,
  F6_E3M2: 6,
  U8: 8,
  I8: 8,
  F8_E5M2: 8,
  F8_E4M3: 8,
  F8_E8M0: 8,
  I16: 16,
  U16: 16,
  F16: 16,
  BF16: 16,
  I32: 32,
  U32: 32,
  F32: 32,
  C64: 64,
  F64: 64,
  I64: 64,
  U64: 64,
};

class MalformedHeader extends Error {}

export const safetensorsScanner: ContentScanner = {
  id: "safetensors",
  appliesTo(path) {
    return path.toLowerCase().endsWith(".safetensors");
  },
  async scan(source) {
    try {
      await checkSafetensors(source);
      return { findings: [] };
    } catch (error) {
      if (error instanceof MalformedHeader || error instanceof TruncatedError) {
        return { findings: [], couldNotScan: `malformed safetensors header: ${error.message}` };
      }
      throw error;
    }
  },
};

async function checkSafetensors(source: ScanSource): Promise<void> {
  if (source.size < 8)
    throw new MalformedHeader(`the file has ${source.size} bytes, fewer than the 8-byte length`);
  const headerLength = (await readRange(source, 0, 8)).readBigUInt64LE(0);
  if (headerLength > BigInt(MAX_SAFETENSORS_HEADER_BYTES)) {
    throw new MalformedHeader(`header length ${headerLength} is over the format's limit of 100 MB`);
  }
  const length = Number(headerLength);
  if (8 + length > source.size) {
    throw new MalformedHeader(`header length ${length} runs past the end of the ${source.size}-byte file`);
  }
  const bytes = await readRange(source, 8, length);
  if (bytes[0] !== 0x7b) throw new MalformedHeader("the header does not start with '{'");
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new MalformedHeader(`the header is not valid UTF-8 JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(header)) throw new MalformedHeader("the header is not a JSON object");
  const dataSize = source.size - 8 - length;
  const spans: Array<{ name: string; begin: number; end: number }> = [];
  for (const [name, info] of Object.entries(header)) {
    if (name === "__metadata__") {
      checkMetadata(info);
      continue;
    }
    spans.push({ name, ...checkTensor(name, info) });
  }
  spans.sort((a, b) => a.begin - b.begin || a.end - b.end);
  let expected = 0;
  for (const span of spans) {
    if (span.begin !== expected) {
      const what = span.begin < expected ? "overlaps the tensor before it" : "leaves a gap before it";
      throw new MalformedHeader(
        `tensor '${span.name}' starts at ${span.begin} and ${what} (expected ${expected})`,
      );
    }
    expected = span.end;
  }
  if (expected !== dataSize) {
    throw new MalformedHeader(
      expected > dataSize
        ? `the tensors end at data offset ${expected}, past the ${dataSize}-byte data region`
        : `the data region has ${dataSize} bytes but the tensors cover ${expected}`,
    );
  }
}

function checkMetadata(metadata: unknown): void {
  if (metadata === null) return;
  if (!isPlainObject(metadata)) throw new MalformedHeader("__metadata__ is not a JSON object");
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value !== "string") throw new MalformedHeader(`__metadata__ entry '${key}' is not a string`);
  }
}

function checkTensor(name: string, info: unknown): { begin: number; end: number } {
  if (!isPlainObject(info)) throw new MalformedHeader(`tensor '${name}' is not a JSON object`);
  const { dtype, shape, data_offsets: offsets } = info;
  if (typeof dtype !== "string" || !(dtype in DTYPE_BITS)) {
    throw new MalformedHeader(`tensor '${name}' has an unknown dtype ${JSON.stringify(dtype)}`);
  }
  if (!Array.isArray(shape) || !shape.every(isIndex)) {
    throw new MalformedHeader(`tensor '${name}' has a shape that is not a list of non-negative integers`);
  }
  const [begin, end] = Array.isArray(offsets) && offsets.length === 2 ? offsets : [];
  if (!isIndex(begin) || !isIndex(end) || begin > end) {
    throw new MalformedHeader(
      `tensor '${name}' has data_offsets that are not [begin, end] with begin <= end`,
    );
  }
  const bits =
    shape.reduce((product: bigint, dim: number) => product * BigInt(dim), 1n) *
    BigInt(DTYPE_BITS[dtype] ?? 0);
  if (bits % 8n !== 0n) throw new MalformedHeader(`tensor '${name}' of ${dtype} does not fill whole bytes`);
  if (bits / 8n !== BigInt(end - begin)) {
    throw new MalformedHeader(
      `tensor '${name}': shape [${shape.join(", ")}] of ${dtype} is ${bits / 8n} bytes but its offsets span ${end - begin}`,
    );
  }
  return { begin, end };
}

function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
