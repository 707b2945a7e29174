import { HASH_BYTES, type XetHash } from "./hashes.js";
import { concat } from "./xorb.js";

/** The MDB shard format (specification: shard), version 2 header and version 1 footer. */
const HEADER_TAG = Uint8Array.from([
  72, 70, 82, 101, 112, 111, 77, 101, 116, 97, 68, 97, 116, 97, 0, 85, 105, 103, 69, 106, 123, 129, 87, 131,
  165, 189, 217, 92, 205, 209, 74, 169,
]);
const HEADER_VERSION = 2;
const FOOTER_VERSION = 1;
const HEADER_BYTES = 48;
const ENTRY_BYTES = 48;
const FOOTER_BYTES = 200;
const FLAG_WITH_VERIFICATION = 0x80000000;
const FLAG_WITH_METADATA_EXT = 0x40000000;

export class MalformedShardError extends Error {
  constructor(message: string) {
    super(`Malformed shard: ${message}`);
    this.name = "MalformedShardError";
  }
}

/** One term of a file reconstruction: chunks [chunkStart, chunkEnd) of a xorb. */
export interface FileTerm {
  xorbHash: XetHash;
  unpackedBytes: number;
  chunkStart: number;
  chunkEnd: number;
}

export interface ShardFileInfo {
  fileHash: XetHash;
  terms: FileTerm[];
  /** One range hash per term, when the shard carries verification entries. */
  verification?: XetHash[];
  sha256?: Uint8Array;
}

export interface ShardXorbChunk {
  hash: XetHash;
  byteStart: number;
  unpackedBytes: number;
}

export interface ShardXorbInfo {
  xorbHash: XetHash;
  bytesInXorb: number;
  bytesOnDisk: number;
  chunks: ShardXorbChunk[];
}

export interface Shard {
  files: ShardFileInfo[];
  xorbs: ShardXorbInfo[];
  /** From the footer, when present: chunk hashes in `xorbs` are keyed with it (dedup responses). */
  hmacKey?: XetHash;
  keyExpiry?: bigint;
}

class Reader {
  at = 0;
  private readonly view: DataView;
  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  need(bytes: number, what: string): void {
    if (this.at + bytes > this.data.length)
      throw new MalformedShardError(`truncated in ${what} at byte ${this.at}`);
  }
  hash(): XetHash {
    const out = this.data.slice(this.at, this.at + HASH_BYTES);
    this.at += HASH_BYTES;
    return out;
  }
  u32(): number {
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }
  u64(): bigint {
    const v = this.view.getBigUint64(this.at, true);
    this.at += 8;
    return v;
  }
  skip(bytes: number): void {
    this.at += bytes;
  }
  get remaining(): number {
    return this.data.length - this.at;
  }
}

function isBookend(hash: XetHash): boolean {
  return hash.every((b) => b === 0xff);
}

export function parseShard(data: Uint8Array): Shard {
  const r = new Reader(data);
  r.need(HEADER_BYTES, "header");
  const tag = r.hash();
  if (!tag.every((b, i) => b === HEADER_TAG[i])) throw new MalformedShardError("wrong magic tag");
  const version = r.u64();
  if (version !== BigInt(HEADER_VERSION)) throw new MalformedShardError(`header version ${version}, not 2`);
  const footerSize = r.u64();

  const files: ShardFileInfo[] = [];
  for (;;) {
    r.need(ENTRY_BYTES, "file info");
    const fileHash = r.hash();
    const flags = r.u32();
    const count = r.u32();
    r.skip(8);
    if (isBookend(fileHash)) break;
    r.need(count * ENTRY_BYTES, "file terms");
    const terms: FileTerm[] = [];
    for (let i = 0; i < count; i++) {
      const xorbHash = r.hash();
      r.u32();
      const unpackedBytes = r.u32();
      const chunkStart = r.u32();
      const chunkEnd = r.u32();
      if (chunkEnd <= chunkStart)
        throw new MalformedShardError(`empty chunk range [${chunkStart}, ${chunkEnd})`);
      terms.push({ xorbHash, unpackedBytes, chunkStart, chunkEnd });
    }
    const file: ShardFileInfo = { fileHash, terms };
    if (flags & FLAG_WITH_VERIFICATION) {
      r.need(count * ENTRY_BYTES, "verification entries");
      file.verification = [];
      for (let i = 0; i < count; i++) {
        file.verification.push(r.hash());
        r.skip(16);
      }
    }
    if (flags & FLAG_WITH_METADATA_EXT) {
      r.need(ENTRY_BYTES, "metadata extension");
      file.sha256 = r.hash();
      r.skip(16);
    }
    files.push(file);
  }

  const xorbs: ShardXorbInfo[] = [];
  for (;;) {
    r.need(ENTRY_BYTES, "xorb info");
    const xorbHash = r.hash();
    r.u32();
    const count = r.u32();
    const bytesInXorb = r.u32();
    const bytesOnDisk = r.u32();
    if (isBookend(xorbHash)) break;
    r.need(count * ENTRY_BYTES, "xorb chunks");
    const chunks: ShardXorbChunk[] = [];
    for (let i = 0; i < count; i++) {
      const hash = r.hash();
      const byteStart = r.u32();
      const unpackedBytes = r.u32();
      r.skip(8);
      chunks.push({ hash, byteStart, unpackedBytes });
    }
    xorbs.push({ xorbHash, bytesInXorb, bytesOnDisk, chunks });
  }

  const shard: Shard = { files, xorbs };
  // The footer may be omitted on upload. When present it ends the shard; lookup tables (truncated hashes to
  // entry indices, which the client builds for its own cache) may sit between the sections and it.
  if (r.remaining > 0) {
    if (footerSize !== BigInt(FOOTER_BYTES) || r.remaining < FOOTER_BYTES) {
      throw new MalformedShardError(
        `${r.remaining} trailing bytes where a ${footerSize}-byte footer belongs`,
      );
    }
    const footerAt = data.length - FOOTER_BYTES;
    const footer = new Reader(data);
    footer.at = footerAt;
    const footerVersion = footer.u64();
    if (footerVersion !== BigInt(FOOTER_VERSION))
      throw new MalformedShardError(`footer version ${footerVersion}`);
    footer.skip(16 + 48);
    const key = footer.hash();
    footer.u64();
    const expiry = footer.u64();
    footer.skip(72);
    if (footer.u64() !== BigInt(footerAt)) throw new MalformedShardError("the footer offset does not match");
    if (key.some((b) => b !== 0)) shard.hmacKey = key;
    shard.keyExpiry = expiry;
  }
  return shard;
}

class Writer {
  private readonly parts: Uint8Array[] = [];
  length = 0;
  bytes(b: Uint8Array): void {
    this.parts.push(b);
    this.length += b.length;
  }
  u32(v: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, true);
    this.bytes(b);
  }
  u64(v: bigint | number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
    this.bytes(b);
  }
  zeros(n: number): void {
    this.bytes(new Uint8Array(n));
  }
  result(): Uint8Array {
    return concat(this.parts);
  }
}

const BOOKEND = new Uint8Array(HASH_BYTES).fill(0xff);

function truncated(hash: XetHash): bigint {
  return new DataView(hash.buffer, hash.byteOffset, 8).getBigUint64(0, true);
}

export interface SerializeShardOptions {
  hmacKey?: XetHash;
  createdAt?: number;
  keyExpiry?: bigint;
}

export function serializeShard(
  shard: Pick<Shard, "files" | "xorbs">,
  options: SerializeShardOptions = {},
): Uint8Array {
  const w = new Writer();
  w.bytes(HEADER_TAG);
  w.u64(HEADER_VERSION);
  w.u64(FOOTER_BYTES);
  const fileInfoOffset = w.length;
  for (const file of shard.files) {
    const withVerification = file.verification !== undefined;
    const flags =
      (withVerification ? FLAG_WITH_VERIFICATION : 0) | (file.sha256 ? FLAG_WITH_METADATA_EXT : 0);
    w.bytes(file.fileHash);
    w.u32(flags >>> 0);
    w.u32(file.terms.length);
    w.zeros(8);
    for (const term of file.terms) {
      w.bytes(term.xorbHash);
      w.u32(0);
      w.u32(term.unpackedBytes);
      w.u32(term.chunkStart);
      w.u32(term.chunkEnd);
    }
    for (const hash of file.verification ?? []) {
      w.bytes(hash);
      w.zeros(16);
    }
    if (file.sha256) {
      w.bytes(file.sha256);
      w.zeros(16);
    }
  }
  w.bytes(BOOKEND);
  w.zeros(16);
  const casInfoOffset = w.length;
  // Lookup tables: the first u64 of each hash (little-endian) -> the entry's row (48-byte units) in its
  // section; the client's shard reader relies on them.
  const fileLookup: Array<[bigint, number]> = [];
  let row = 0;
  for (const file of shard.files) {
    fileLookup.push([truncated(file.fileHash), row]);
    row += 1 + file.terms.length * (file.verification ? 2 : 1) + (file.sha256 ? 1 : 0);
  }
  const casLookup: Array<[bigint, number]> = [];
  const chunkLookup: Array<[bigint, number, number]> = [];
  row = 0;
  for (const xorb of shard.xorbs) {
    casLookup.push([truncated(xorb.xorbHash), row]);
    for (const [i, chunk] of xorb.chunks.entries()) chunkLookup.push([truncated(chunk.hash), row, i]);
    row += 1 + xorb.chunks.length;
    w.bytes(xorb.xorbHash);
    w.u32(0);
    w.u32(xorb.chunks.length);
    w.u32(xorb.bytesInXorb);
    w.u32(xorb.bytesOnDisk);
    for (const chunk of xorb.chunks) {
      w.bytes(chunk.hash);
      w.u32(chunk.byteStart);
      w.u32(chunk.unpackedBytes);
      w.zeros(8);
    }
  }
  w.bytes(BOOKEND);
  w.zeros(16);
  const byKey = (a: [bigint, ...number[]], b: [bigint, ...number[]]) =>
    a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
  const fileLookupOffset = w.length;
  for (const [key, index] of fileLookup.sort(byKey)) {
    w.u64(key);
    w.u32(index);
  }
  const casLookupOffset = w.length;
  for (const [key, index] of casLookup.sort(byKey)) {
    w.u64(key);
    w.u32(index);
  }
  const chunkLookupOffset = w.length;
  for (const [key, casRow, index] of chunkLookup.sort(byKey)) {
    w.u64(key);
    w.u32(casRow);
    w.u32(index);
  }
  const footerOffset = w.length;
  const storedBytes = shard.xorbs.reduce((n, x) => n + x.bytesInXorb, 0);
  const onDisk = shard.xorbs.reduce((n, x) => n + x.bytesOnDisk, 0);
  const materialized = shard.files.reduce((n, f) => n + f.terms.reduce((m, t) => m + t.unpackedBytes, 0), 0);
  w.u64(FOOTER_VERSION);
  w.u64(fileInfoOffset);
  w.u64(casInfoOffset);
  w.u64(fileLookupOffset);
  w.u64(fileLookup.length);
  w.u64(casLookupOffset);
  w.u64(casLookup.length);
  w.u64(chunkLookupOffset);
  w.u64(chunkLookup.length);
  w.bytes(options.hmacKey ?? new Uint8Array(HASH_BYTES));
  w.u64(options.createdAt ?? Math.floor(Date.now() / 1000));
  w.u64(options.keyExpiry ?? 0xffffffffffffffffn);
  w.zeros(48);
  w.u64(onDisk);
  w.u64(materialized);
  w.u64(storedBytes);
  w.u64(footerOffset);
  return w.result();
}
