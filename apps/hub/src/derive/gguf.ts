/**
 * GGUF headers: read with byte ranges (never the whole file), and written for tiny demo files. Format:
 * "GGUF", version (u32), tensor count (u64), metadata count (u64), metadata key/values, tensor infos.
 */

import type { GgufInfo } from "@modelhub/tasks";

export type RangeReader = (start: number, end: number) => Promise<Buffer>;

const TYPE = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;
const FIXED_SIZES: Record<number, number> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};

export class GgufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GgufError";
  }
}

/** Sequential reads over a range reader, fetching a window at a time. */
class Cursor {
  private buffer: Buffer = Buffer.alloc(0);
  private bufferStart = 0;
  position = 0;
  constructor(
    private readonly read: RangeReader,
    private readonly size: number,
    private readonly limit: number,
  ) {}

  async take(length: number): Promise<Buffer> {
    if (this.position + length > Math.min(this.size, this.limit)) {
      throw new GgufError("The GGUF header is truncated or larger than the reading limit.");
    }
    const offset = this.position - this.bufferStart;
    if (offset + length > this.buffer.length) {
      const end = Math.min(this.size, this.position + Math.max(length, 1 << 20)) - 1;
      this.buffer = await this.read(this.position, end);
      this.bufferStart = this.position;
    }
    const start = this.position - this.bufferStart;
    this.position += length;
    return this.buffer.subarray(start, start + length);
  }
  async u32() {
    return (await this.take(4)).readUInt32LE(0);
  }
  async u64() {
    const value = (await this.take(8)).readBigUInt64LE(0);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufError("A GGUF count is too large.");
    return Number(value);
  }
  async string() {
    return (await this.take(await this.u64())).toString("utf8");
  }
}

async function readValue(cursor: Cursor, type: number, keepArrays: boolean): Promise<unknown> {
  if (type === TYPE.STRING) return cursor.string();
  if (type === TYPE.ARRAY) {
    const itemType = await cursor.u32();
    const count = await cursor.u64();
    // Arrays (token lists) are skipped, not kept: the hub needs scalars only.
    const items: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const item = await readValue(cursor, itemType, false);
      if (keepArrays && items.length < 16) items.push(item);
    }
    return keepArrays ? items : undefined;
  }
  const size = FIXED_SIZES[type];
  if (size === undefined) throw new GgufError(`Unknown GGUF value type ${type}.`);
  const bytes = await cursor.take(size);
  switch (type) {
    case TYPE.UINT8:
      return bytes.readUInt8(0);
    case TYPE.INT8:
      return bytes.readInt8(0);
    case TYPE.UINT16:
      return bytes.readUInt16LE(0);
    case TYPE.INT16:
      return bytes.readInt16LE(0);
    case TYPE.UINT32:
      return bytes.readUInt32LE(0);
    case TYPE.INT32:
      return bytes.readInt32LE(0);
    case TYPE.FLOAT32:
      return bytes.readFloatLE(0);
    case TYPE.BOOL:
      return bytes.readUInt8(0) !== 0;
    case TYPE.FLOAT64:
      return bytes.readDoubleLE(0);
    default:
      return Number(type === TYPE.INT64 ? bytes.readBigInt64LE(0) : bytes.readBigUInt64LE(0));
  }
}

/** Reads a GGUF file's metadata and tensor infos (at most `limit` bytes) into the public hub's `gguf` field. */
export async function readGgufSummary(read: RangeReader, size: number, limit = 64 << 20): Promise<GgufInfo> {
  const cursor = new Cursor(read, size, limit);
  if ((await cursor.take(4)).toString("latin1") !== "GGUF") throw new GgufError("Not a GGUF file.");
  const version = await cursor.u32();
  if (version < 2 || version > 3) throw new GgufError(`Unsupported GGUF version ${version}.`);
  const tensorCount = await cursor.u64();
  const kvCount = await cursor.u64();
  const metadata: Record<string, unknown> = {};
  for (let i = 0; i < kvCount; i++) {
    const key = await cursor.string();
    metadata[key] = await readValue(cursor, await cursor.u32(), false);
  }
  let total = 0;
  for (let i = 0; i < tensorCount; i++) {
    await cursor.string();
    const dims = await cursor.u32();
    let count = 1;
    for (let d = 0; d < dims; d++) count *= await cursor.u64();
    await cursor.u32(); // type
    await cursor.u64(); // offset
    total += count;
  }
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
