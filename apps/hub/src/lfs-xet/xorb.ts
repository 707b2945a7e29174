import type { XetHash } from "./hashes.js";
import { compressLz4Frame, decompressLz4Frame } from "./lz4-frame.js";

/**
 * Serialized xorbs above this are refused. The specification says 64 MiB, but hf_xet fills a xorb with up to
 * 64 MiB of chunk data and then adds chunk headers and its footer (8 bytes and ~100 bytes per chunk), so
 * incompressible data gives xorbs slightly over 64 MiB: a 1 MiB allowance covers that.
 */
export const MAX_XORB_BYTES = 65 * 1024 * 1024;
export const CHUNK_HEADER_BYTES = 8;
const MAX_CHUNK_BYTES = 128 * 1024;
/** Some clients append an info footer after the chunks; it starts with these bytes and is not chunk data. */
const FOOTER_IDENT = new TextEncoder().encode("XETBLOB");

export enum Compression {
  None = 0,
  Lz4 = 1,
  ByteGrouping4Lz4 = 2,
}

export class MalformedXorbError extends Error {
  constructor(message: string) {
    super(`Malformed xorb: ${message}`);
    this.name = "MalformedXorbError";
  }
}

/** Where one chunk sits in a serialized xorb. `start`/`end` cover header and data. */
export interface XorbChunk {
  index: number;
  start: number;
  end: number;
  compression: Compression;
  uncompressedSize: number;
}

export interface VerifiedChunk extends XorbChunk {
  hash: XetHash;
}

/**
 * Reads the header of the chunk at `at`: the chunk (header and data within `data`), "footer" when the client's
 * info footer starts there (no more chunks), or "incomplete" when `data` ends before the chunk does.
 */
export function readChunkHeader(
  data: Uint8Array,
  at: number,
  index: number,
): XorbChunk | "footer" | "incomplete" {
  if (startsWith(data, at, FOOTER_IDENT)) return "footer";
  // Fewer bytes than a header (which also covers a partly received footer ident): wait for more.
  if (at + CHUNK_HEADER_BYTES > data.length) return "incomplete";
  const version = data[at] as number;
  if (version !== 0) throw new MalformedXorbError(`chunk ${index} has version ${version}, not 0`);
  const compression = data[at + 4] as number;
  const uncompressedSize = readU24(data, at + 5);
  if (!(compression in Compression)) {
    throw new MalformedXorbError(`chunk ${index} has unknown compression scheme ${compression}`);
  }
  if (uncompressedSize === 0 || uncompressedSize > MAX_CHUNK_BYTES) {
    throw new MalformedXorbError(`chunk ${index} announces ${uncompressedSize} bytes`);
  }
  // LZ4 may grow incompressible data a little, never by kilobytes: a larger claim is not a real chunk.
  if (chunkLength(data, at) > CHUNK_HEADER_BYTES + MAX_CHUNK_BYTES + 4096) {
    throw new MalformedXorbError(`chunk ${index} announces ${chunkLength(data, at)} stored bytes`);
  }
  const end = at + chunkLength(data, at);
  if (end > data.length) return "incomplete";
  return { index, start: at, end, compression, uncompressedSize };
}

/** Header and data bytes of the chunk whose (complete) header starts at `at`. */
export function chunkLength(data: Uint8Array, at: number): number {
  return CHUNK_HEADER_BYTES + readU24(data, at + 1);
}

/** Walks the chunk headers of a serialized xorb (or of a byte range of one that starts on a chunk). */
export function parseXorbChunks(data: Uint8Array): { chunks: XorbChunk[]; chunkBytes: number } {
  const chunks: XorbChunk[] = [];
  let at = 0;
  while (at < data.length) {
    const chunk = readChunkHeader(data, at, chunks.length);
    if (chunk === "footer") break;
    if (chunk === "incomplete") {
      throw new MalformedXorbError(
        at + CHUNK_HEADER_BYTES > data.length
          ? `truncated chunk header at byte ${at}`
          : `chunk ${chunks.length} runs past the end of the xorb`,
      );
    }
    chunks.push(chunk);
    at = chunk.end;
  }
  if (chunks.length === 0) throw new MalformedXorbError("no chunks");
  return { chunks, chunkBytes: at };
}

/** The raw bytes of one chunk. Throws MalformedXorbError when they do not decode to the announced size. */
export function decodeChunk(data: Uint8Array, chunk: XorbChunk): Uint8Array {
  const payload = data.subarray(chunk.start + CHUNK_HEADER_BYTES, chunk.end);
  try {
    switch (chunk.compression) {
      case Compression.None:
        if (payload.length !== chunk.uncompressedSize)
          throw new Error("stored size differs from announced size");
        return payload;
      case Compression.Lz4:
        return decompressLz4Frame(payload, chunk.uncompressedSize);
      case Compression.ByteGrouping4Lz4:
        return ungroupBytes4(decompressLz4Frame(payload, chunk.uncompressedSize));
    }
  } catch (error) {
    throw new MalformedXorbError(`chunk ${chunk.index}: ${(error as Error).message}`);
  }
}

export class XorbHashMismatchError extends Error {
  constructor() {
    super("The xorb's chunks do not hash to the xorb hash in the path.");
    this.name = "XorbHashMismatchError";
  }
}

/** Serializes chunks as a xorb (the hub's tests build uploads the way a client does). */
export function serializeXorb(
  chunks: readonly Uint8Array[],
  compression: Compression = Compression.Lz4,
): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const raw of chunks) {
    let scheme = compression;
    let payload: Uint8Array = raw;
    if (scheme === Compression.Lz4) payload = compressLz4Frame(raw);
    if (scheme === Compression.ByteGrouping4Lz4) payload = compressLz4Frame(groupBytes4(raw));
    if (payload.length >= raw.length) {
      scheme = Compression.None;
      payload = raw;
    }
    const header = new Uint8Array(CHUNK_HEADER_BYTES);
    header[0] = 0;
    writeU24(header, 1, payload.length);
    header[4] = scheme;
    writeU24(header, 5, raw.length);
    parts.push(header, payload);
  }
  return concat(parts);
}

/** Byte grouping: bytes 0,4,8… then 1,5,9… then 2,6,… then 3,7,…; a ragged tail feeds the first groups. */
export function groupBytes4(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  const next = Uint32Array.from(groupOffsets(data.length));
  for (let i = 0; i < data.length; i++) out[(next[i & 3] as number)++] = data[i] as number;
  return out;
}

export function ungroupBytes4(grouped: Uint8Array): Uint8Array {
  const out = new Uint8Array(grouped.length);
  const next = Uint32Array.from(groupOffsets(grouped.length));
  for (let i = 0; i < grouped.length; i++) out[i] = grouped[(next[i & 3] as number)++] as number;
  return out;
}

/** Start offset of each of the four groups: group g holds the bytes at positions ≡ g (mod 4). */
function groupOffsets(length: number): [number, number, number, number] {
  const base = Math.floor(length / 4);
  const extra = length % 4;
  const sizes = [0, 1, 2, 3].map((g) => base + (g < extra ? 1 : 0));
  return [0, sizes[0] as number, (sizes[0] as number) + (sizes[1] as number), length - (sizes[3] as number)];
}

function readU24(data: Uint8Array, at: number): number {
  return (data[at] as number) | ((data[at + 1] as number) << 8) | ((data[at + 2] as number) << 16);
}

function writeU24(data: Uint8Array, at: number, value: number): void {
  data[at] = value & 0xff;
  data[at + 1] = (value >> 8) & 0xff;
  data[at + 2] = (value >> 16) & 0xff;
}

function startsWith(data: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (at + prefix.length > data.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[at + i] !== prefix[i]) return false;
  return true;
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
