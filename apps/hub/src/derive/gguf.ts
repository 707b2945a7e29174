/**
 * GGUF headers: read with byte ranges (never the whole file), and written for tiny demo files. Format:
 * "GGUF", version (u32), tensor count (u64), metadata count (u64), metadata key/values, tensor infos.
 */

import type { GgufInfo } from "@modelhub/tasks";
import { GgufError, type RangeReader, readGgufHeader } from "./gguf-header.js";

export { GgufError, type RangeReader };

/** Key/value types of the few values a tiny demo file holds. */
const TYPE = { UINT32: 4, STRING: 8 } as const;

/**
 * Reads a GGUF file's metadata and tensor infos (at most `limit` bytes of header) into the public hub's `gguf`
 * field, through the hub's one GGUF reader (gguf-header.ts: the checks the scanner makes, so a header the
 * scanner calls malformed gives no summary either). Throws GgufError when the header cannot be read.
 */
export async function readGgufSummary(read: RangeReader, size: number, limit = 64 << 20): Promise<GgufInfo> {
  const header = await readGgufHeader(read, size, {
    limit,
    keep: (key) =>
      key === "general.architecture" || key === "tokenizer.chat_template" || key.endsWith(".context_length"),
  });
  const { metadata } = header;
  const total = header.tensors.reduce(
    (sum, tensor) => sum + Number(tensor.shape.reduce((product, dim) => product * dim, 1n)),
    0,
  );
  const architecture =
    typeof metadata["general.architecture"] === "string" ? metadata["general.architecture"] : undefined;
  const summary: GgufInfo = { total };
  if (architecture) summary.architecture = architecture;
  const context = architecture ? metadata[`${architecture}.context_length`] : undefined;
  if (typeof context === "number") summary.context_length = context;
  if (typeof metadata["tokenizer.chat_template"] === "string") {
    summary.chat_template = metadata["tokenizer.chat_template"] as string;
  }
  return summary;
}

function ggufString(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(bytes.length));
  return Buffer.concat([length, bytes]);
}

/**
 * A tiny, valid GGUF v3 file with metadata only (no tensors): what a demo copy holds in place of gigabytes of
 * weights, so that tools can download it and read its header for real.
 */
export function writeTinyGguf(metadata: Record<string, string | number>): Buffer {
  const parts: Buffer[] = [Buffer.from("GGUF", "latin1")];
  const header = Buffer.alloc(4 + 8 + 8);
  header.writeUInt32LE(3, 0);
  header.writeBigUInt64LE(0n, 4);
  header.writeBigUInt64LE(BigInt(Object.keys(metadata).length), 12);
  parts.push(header);
  for (const [key, value] of Object.entries(metadata)) {
    parts.push(ggufString(key));
    const type = Buffer.alloc(4);
    if (typeof value === "string") {
      type.writeUInt32LE(TYPE.STRING);
      parts.push(type, ggufString(value));
    } else {
      type.writeUInt32LE(TYPE.UINT32);
      const number = Buffer.alloc(4);
      number.writeUInt32LE(value);
      parts.push(type, number);
    }
  }
  return Buffer.concat(parts);
}
