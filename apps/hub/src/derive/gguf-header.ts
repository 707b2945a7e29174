/**
 * The one GGUF header reader (versions 1 to 3, either byte order), used by the scanner's sanity checks
 * (scanning/gguf-scanner.ts) and by derive's metadata extraction (gguf.ts readGgufSummary). It checks the
 * header the way llama.cpp's loader does, so a file that passes cannot send a reader out of bounds: the magic
 * and version, tensor and key/value counts within limits, every string and array inside the file and
 * bounded, every key/value type known, every tensor's dimensions and ggml type known, its offset aligned
 * (`general.alignment`, default 32) and equal to the running sum of the padded tensor sizes before it, and
 * the data section inside the file. The header is read by windows of 1 MiB through a range reader; tensor
 * data is never read. Metadata values are skipped unless the caller keeps their key (token lists never are).
 */

/** Reads bytes `start..end` (inclusive) of the file. */
export type RangeReader = (start: number, end: number) => Promise<Buffer>;

/** The header is malformed (or past the caller's reading limit): the message says where and why. */
export class GgufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GgufError";
  }
}

/** [elements per block, bytes per block] of each ggml type, as llama.cpp's ggml and the `gguf` package list them. */
export const GGML_TYPE_SIZES: Record<number, readonly [number, number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 40], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  16: [256, 66], // IQ2_XXS
  17: [256, 74], // IQ2_XS
  18: [256, 98], // IQ3_XXS
  19: [256, 50], // IQ1_S
  20: [32, 18], // IQ4_NL
  21: [256, 110], // IQ3_S
  22: [256, 82], // IQ2_S
  23: [256, 136], // IQ4_XS
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  29: [256, 56], // IQ1_M
  30: [1, 2], // BF16
  34: [256, 54], // TQ1_0
  35: [256, 66], // TQ2_0
  39: [32, 17], // MXFP4
  40: [64, 36], // NVFP4
  41: [128, 18], // Q1_0
};

/** Limits far above any real model (the largest have a few thousand tensors and a 256k-token vocabulary). */
export const GGUF_LIMITS = {
  tensors: 1_000_000,
  keyValues: 1_000_000,
  arrayLength: 1 << 26,
  stringBytes: 1 << 26,
};
const MAX_DIMS = 4; // GGML_MAX_DIMS
const MAX_ARRAY_NESTING = 4;
const WINDOW = 1 << 20;

/** Key/value types: fixed sizes of the scalars; 8 is a string, 9 an array. */
const SCALAR_BYTES: Record<number, number> = {
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
const STRING = 8;
const ARRAY = 9;

/** Reads the header forwards through a window of the file; skipping far ahead costs no read. */
class HeaderCursor {
  position = 0;
  private window: Buffer = Buffer.alloc(0);
  private windowStart = 0;
  littleEndian = true;
  wide = true; // v2+: 64-bit counts and lengths; v1: 32-bit

  constructor(
    private readonly read: RangeReader,
    readonly size: number,
    private readonly limit: number,
  ) {}

  async take(length: number): Promise<Buffer> {
    if (this.position + length > this.size) {
      throw new GgufError(
        `the header needs bytes up to ${this.position + length}, past the end of the ${this.size}-byte file`,
      );
    }
    if (this.position + length > this.limit) {
      throw new GgufError(`the header runs past the reading limit of ${this.limit} bytes`);
    }
    const offset = this.position - this.windowStart;
    if (offset < 0 || offset + length > this.window.length) {
      this.windowStart = this.position;
      const windowLength = Math.min(Math.max(length, WINDOW), this.size - this.position);
      this.window = await this.read(this.position, this.position + windowLength - 1);
      if (this.window.length < length) {
        throw new GgufError(
          `read ${this.window.length} of ${length} bytes at ${this.position}: the content ended early`,
        );
      }
    }
    const at = this.position - this.windowStart;
    this.position += length;
    return this.window.subarray(at, at + length);
  }

  skip(length: number, what: string): void {
    if (this.position + length > this.size) {
      throw new GgufError(`${what} of ${length} bytes runs past the end of the ${this.size}-byte file`);
    }
    this.position += length;
  }

  async u32(): Promise<number> {
    const bytes = await this.take(4);
    return this.littleEndian ? bytes.readUInt32LE(0) : bytes.readUInt32BE(0);
  }

  async u64(): Promise<bigint> {
    const bytes = await this.take(8);
    return this.littleEndian ? bytes.readBigUInt64LE(0) : bytes.readBigUInt64BE(0);
  }

  /** A count or a length: 32-bit in v1, 64-bit after; checked against `limit`. */
  async count(limit: number, what: string): Promise<number> {
    const value = this.wide ? await this.u64() : BigInt(await this.u32());
    if (value > BigInt(limit)) throw new GgufError(`${what} ${value} is over the limit of ${limit}`);
    return Number(value);
  }

  async string(what: string): Promise<string> {
    const length = await this.count(GGUF_LIMITS.stringBytes, `${what} length`);
    if (this.position + length > this.size) {
      throw new GgufError(`${what} of ${length} bytes at ${this.position} runs past the end of the file`);
    }
    return (await this.take(length)).toString("utf8");
  }

  async skipString(what: string): Promise<void> {
    const length = await this.count(GGUF_LIMITS.stringBytes, `${what} length`);
    this.skip(length, what);
  }
}

/** A tensor as the header declares it (its data is not read). */
export interface GgufTensorInfo {
  name: string;
  shape: bigint[];
  ggmlType: number;
  /** Offset within the data section. */
  offset: bigint;
  bytes: bigint;
}

export interface GgufHeader {
  version: number;
  littleEndian: boolean;
  alignment: number;
  /** The kept keys' values (strings, numbers, booleans; arrays are never kept). */
  metadata: Record<string, unknown>;
  tensors: GgufTensorInfo[];
}

export interface GgufReadOptions {
  /** Which metadata keys to keep the value of (scalars and strings); every other value is only checked. */
  keep?: (key: string) => boolean;
  /** Bytes of header read at most (derive bounds its work); default the whole file. */
  limit?: number;
}

/** Reads and checks a GGUF header; throws GgufError saying what is wrong. */
export async function readGgufHeader(
  read: RangeReader,
  size: number,
  options: GgufReadOptions = {},
): Promise<GgufHeader> {
  const cursor = new HeaderCursor(read, size, options.limit ?? Number.POSITIVE_INFINITY);
  if (size < 8) throw new GgufError(`the file has ${size} bytes, too few for a GGUF header`);
  const magic = (await read(0, 3)).toString("latin1");
  if (magic !== "GGUF") throw new GgufError(`the magic is ${JSON.stringify(magic)}, not "GGUF"`);
  cursor.position = 4;
  let version = await cursor.u32();
  if (version < 1 || version > 3) {
    // A big-endian file (the gguf writer can make one) shows its version byte-swapped.
    const swapped = Buffer.alloc(4);
    swapped.writeUInt32LE(version);
    if (swapped.readUInt32BE(0) >= 1 && swapped.readUInt32BE(0) <= 3) {
      cursor.littleEndian = false;
      version = swapped.readUInt32BE(0);
    } else {
      throw new GgufError(`version ${version} is not one of 1, 2, 3`);
    }
  }
  cursor.wide = version >= 2;
  const tensorCount = await cursor.count(GGUF_LIMITS.tensors, "tensor count");
  const keyValueCount = await cursor.count(GGUF_LIMITS.keyValues, "key/value count");

  let alignment = 32;
  const metadata: Record<string, unknown> = {};
  for (let i = 0; i < keyValueCount; i++) {
    const key = await cursor.string(`key ${i}`);
    const type = await cursor.u32();
    if (key === "general.alignment") {
      if (type !== 4) throw new GgufError(`general.alignment has type ${type}, not uint32`);
      alignment = await cursor.u32();
      if (alignment === 0 || (alignment & (alignment - 1)) !== 0) {
        throw new GgufError(`general.alignment ${alignment} is not a power of two`);
      }
      metadata[key] = alignment;
      continue;
    }
    if (options.keep?.(key) && type !== ARRAY)
      metadata[key] = await readScalar(cursor, type, `value of '${key}'`);
    else await skipValue(cursor, type, `value of '${key}'`, 0);
  }

  const tensors: GgufTensorInfo[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = await cursor.string(`tensor ${i}'s name`);
    const dims = await cursor.u32();
    if (dims < 1 || dims > MAX_DIMS)
      throw new GgufError(`tensor '${name}' has ${dims} dimensions, not 1 to ${MAX_DIMS}`);
    const shape: bigint[] = [];
    for (let d = 0; d < dims; d++) {
      const dim = cursor.wide ? await cursor.u64() : BigInt(await cursor.u32());
      if (dim >= 2n ** 63n) throw new GgufError(`tensor '${name}' has dimension ${dim}, over int64`);
      shape.push(dim);
    }
    const type = await cursor.u32();
    const size = GGML_TYPE_SIZES[type];
    if (!size) throw new GgufError(`tensor '${name}' has an unknown ggml type ${type}`);
    const [block, blockBytes] = size;
    if ((shape[0] ?? 0n) % BigInt(block) !== 0n) {
      throw new GgufError(
        `tensor '${name}': its first dimension ${shape[0]} is not a multiple of the block size ${block}`,
      );
    }
    const elements = shape.reduce((product, dim) => product * dim, 1n);
    const offset = await cursor.u64();
    tensors.push({
      name,
      shape,
      ggmlType: type,
      offset,
      bytes: (elements / BigInt(block)) * BigInt(blockBytes),
    });
  }

  const header: GgufHeader = { version, littleEndian: cursor.littleEndian, alignment, metadata, tensors };
  // A file of metadata only (a vocabulary) has no data section, and needs no padding after its header.
  if (tensors.length === 0) return header;
  const dataStart = BigInt(Math.ceil(cursor.position / alignment) * alignment);
  if (dataStart > BigInt(size))
    throw new GgufError(`the data section starts at ${dataStart}, past the end of the file`);
  const dataSize = BigInt(size) - dataStart;
  let expected = 0n;
  const pad = (bytes: bigint) => ((bytes + BigInt(alignment) - 1n) / BigInt(alignment)) * BigInt(alignment);
  for (const tensor of tensors) {
    if (tensor.offset % BigInt(alignment) !== 0n) {
      throw new GgufError(`tensor '${tensor.name}' has offset ${tensor.offset}, not aligned to ${alignment}`);
    }
    if (tensor.offset !== expected) {
      throw new GgufError(
        `tensor '${tensor.name}' has offset ${tensor.offset}, expected ${expected} (overlap or gap)`,
      );
    }
    if (tensor.offset + tensor.bytes > dataSize) {
      throw new GgufError(
        `tensor '${tensor.name}' (${tensor.bytes} bytes at data offset ${tensor.offset}) ends past the ${dataSize}-byte data section`,
      );
    }
    expected += pad(tensor.bytes);
  }
  return header;
}

async function skipValue(cursor: HeaderCursor, type: number, what: string, depth: number): Promise<void> {
  const scalar = SCALAR_BYTES[type];
  if (scalar !== undefined) return cursor.skip(scalar, what);
  if (type === STRING) return cursor.skipString(what);
  if (type !== ARRAY) throw new GgufError(`${what} has an unknown type ${type}`);
  if (depth >= MAX_ARRAY_NESTING)
    throw new GgufError(`${what} nests arrays deeper than ${MAX_ARRAY_NESTING}`);
  const elementType = await cursor.u32();
  const length = await cursor.count(GGUF_LIMITS.arrayLength, `${what}'s array length`);
  const elementBytes = SCALAR_BYTES[elementType];
  if (elementBytes !== undefined) return cursor.skip(length * elementBytes, `${what}'s ${length} elements`);
  // Strings and arrays take at least their length field each: a cheap bound before walking them.
  if (cursor.position + length * (cursor.wide ? 8 : 4) > cursor.size) {
    throw new GgufError(`${what}'s ${length} elements cannot fit in the rest of the file`);
  }
  for (let i = 0; i < length; i++) await skipValue(cursor, elementType, `${what}[${i}]`, depth + 1);
}

/** A scalar or string value, read as its type says (int64s beyond 2^53 lose precision, as JSON would). */
async function readScalar(cursor: HeaderCursor, type: number, what: string): Promise<unknown> {
  if (type === STRING) return cursor.string(what);
  const size = SCALAR_BYTES[type];
  if (size === undefined) throw new GgufError(`${what} has an unknown type ${type}`);
  const bytes = await cursor.take(size);
  const le = cursor.littleEndian;
  switch (type) {
    case 0:
      return bytes.readUInt8(0);
    case 1:
      return bytes.readInt8(0);
    case 2:
      return le ? bytes.readUInt16LE(0) : bytes.readUInt16BE(0);
    case 3:
      return le ? bytes.readInt16LE(0) : bytes.readInt16BE(0);
    case 4:
      return le ? bytes.readUInt32LE(0) : bytes.readUInt32BE(0);
    case 5:
      return le ? bytes.readInt32LE(0) : bytes.readInt32BE(0);
    case 6:
      return le ? bytes.readFloatLE(0) : bytes.readFloatBE(0);
    case 7:
      return bytes.readUInt8(0) !== 0;
    case 10:
      return Number(le ? bytes.readBigUInt64LE(0) : bytes.readBigUInt64BE(0));
    case 11:
      return Number(le ? bytes.readBigInt64LE(0) : bytes.readBigInt64BE(0));
    default:
      return le ? bytes.readDoubleLE(0) : bytes.readDoubleBE(0);
  }
}
