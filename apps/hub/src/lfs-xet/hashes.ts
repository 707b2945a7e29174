import { type Blake3Backend, defaultBlake3Backend, type KeyedBlake3, keyedBlake3 } from "./blake3.js";

/** A Xet hash: 32 raw bytes (chunk, xorb, file and verification hashes alike). */
export type XetHash = Uint8Array;

export const HASH_BYTES = 32;

// Keys of the keyed blake3 hashes, from the specification (hashing).
const DATA_KEY = Uint8Array.from([
  102, 151, 245, 119, 91, 149, 80, 222, 49, 53, 203, 172, 165, 151, 24, 28, 157, 228, 33, 16, 155, 235, 43,
  88, 180, 208, 176, 75, 147, 173, 242, 41,
]);
const INTERNAL_NODE_KEY = Uint8Array.from([
  1, 126, 197, 199, 165, 71, 41, 150, 253, 148, 102, 102, 180, 138, 2, 230, 93, 221, 83, 111, 55, 199, 109,
  210, 248, 99, 82, 230, 74, 83, 113, 63,
]);
const VERIFICATION_KEY = Uint8Array.from([
  127, 24, 87, 214, 206, 86, 237, 102, 18, 127, 249, 19, 231, 165, 195, 243, 164, 205, 38, 213, 181, 219, 73,
  230, 65, 36, 152, 127, 40, 251, 148, 195,
]);
const FILE_KEY = new Uint8Array(HASH_BYTES);

/** Mean branching factor of the aggregated (merkle) hash tree. */
const MEAN_BRANCHING = 4;

export class MalformedHashError extends Error {
  constructor(text: string) {
    super(`"${text.slice(0, 80)}" is not a Xet hash (64 lowercase hexadecimal characters).`);
    this.name = "MalformedHashError";
  }
}

/**
 * The specification's string form of a hash: each 8-byte group read as a little-endian u64 and printed as 16
 * hex digits, which reverses the bytes within each group.
 */
export function hashToHex(hash: XetHash): string {
  // Reordered into a scratch buffer, then printed natively: per character in JS, this cost ~7 µs a hash, and
  // an upload converts several per 64 KiB chunk (its rows, the xorb's hash tree, the shard's checks).
  for (let group = 0; group < 32; group += 8) {
    for (let i = 0; i < 8; i++) hexScratch[group + i] = hash[group + 7 - i] as number;
  }
  return hexScratch.toString("hex");
}

/** hashToHex's reordered bytes (one per thread: a module is loaded once per thread, and calls are synchronous). */
const hexScratch = Buffer.alloc(HASH_BYTES);

const HASH_HEX = /^[0-9a-f]{64}$/;

export function isHashHex(text: string): boolean {
  return HASH_HEX.test(text);
}

export function hexToHash(text: string): XetHash {
  if (!isHashHex(text)) throw new MalformedHashError(text);
  const printed = Buffer.from(text, "hex");
  const hash = new Uint8Array(HASH_BYTES);
  for (let group = 0; group < 32; group += 8) {
    for (let i = 0; i < 8; i++) hash[group + 7 - i] = printed[group + i] as number;
  }
  return hash;
}

export function hashesEqual(a: XetHash, b: XetHash): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A leaf or node of the aggregated hash tree: a hash and the number of bytes under it. */
export interface SizedHash {
  hash: XetHash;
  size: number;
}

/**
 * The keyed blake3 hashes of the protocol. The hashers are built asynchronously (hash-wasm compiles
 * WebAssembly), after which every call is synchronous: call `loadXetHashing()` once and keep the result.
 */
export class XetHashing {
  private constructor(
    /** Which BLAKE3 implementation computes these hashes (blake3.ts). */
    readonly backend: Blake3Backend,
    private readonly data: KeyedBlake3,
    private readonly node: KeyedBlake3,
    private readonly verification: KeyedBlake3,
    private readonly file: KeyedBlake3,
  ) {}

  static async create(backend: Blake3Backend = defaultBlake3Backend()): Promise<XetHashing> {
    const [data, node, verification, file] = await Promise.all(
      [DATA_KEY, INTERNAL_NODE_KEY, VERIFICATION_KEY, FILE_KEY].map((key) => keyedBlake3(key, backend)),
    );
    return new XetHashing(backend, data!, node!, verification!, file!);
  }

  chunkHash(chunk: Uint8Array): XetHash {
    return this.data(chunk);
  }

  /** Root of the aggregated hash tree over `leaves` (chunk hashes and sizes): the xorb hash. Empty: zeros. */
  merkleRoot(leaves: readonly SizedHash[]): XetHash {
    if (leaves.length === 0) return new Uint8Array(HASH_BYTES);
    let level: SizedHash[] = leaves.slice();
    while (level.length > 1) {
      const next: SizedHash[] = [];
      let start = 0;
      while (start < level.length) {
        const end = start + nextCut(level, start);
        next.push(this.nodeHash(level, start, end));
        start = end;
      }
      level = next;
    }
    return (level[0] as SizedHash).hash;
  }

  xorbHash(chunks: readonly SizedHash[]): XetHash {
    return this.merkleRoot(chunks);
  }

  /** The file hash: the tree root hashed once more with an all-zero key. An empty file hashes to zeros. */
  fileHash(chunks: readonly SizedHash[]): XetHash {
    if (chunks.length === 0) return new Uint8Array(HASH_BYTES);
    return this.file(this.merkleRoot(chunks));
  }

  /** The verification hash of a term: the concatenated raw chunk hashes of its range, keyed. */
  rangeVerificationHash(chunkHashes: readonly XetHash[]): XetHash {
    const joined = new Uint8Array(chunkHashes.length * HASH_BYTES);
    for (const [i, hash] of chunkHashes.entries()) joined.set(hash, i * HASH_BYTES);
    return this.verification(joined);
  }

  private nodeHash(level: readonly SizedHash[], start: number, end: number): SizedHash {
    let text = "";
    let size = 0;
    for (let i = start; i < end; i++) {
      const entry = level[i] as SizedHash;
      text += `${hashToHex(entry.hash)} : ${entry.size}\n`;
      size += entry.size;
    }
    return { hash: this.node(new TextEncoder().encode(text)), size };
  }
}

/**
 * How many entries from `start` form the next node: at least 2, at most 2×4+1, cutting after the first entry
 * (from the third on) whose hash, as its last little-endian u64, is a multiple of 4.
 */
function nextCut(level: readonly SizedHash[], start: number): number {
  const remaining = level.length - start;
  if (remaining <= 2) return remaining;
  const end = Math.min(2 * MEAN_BRANCHING + 1, remaining);
  for (let i = 2; i < end; i++) {
    const hash = (level[start + i] as SizedHash).hash;
    // The low bits of the u64 made of bytes 24..31 (little-endian) are the low bits of byte 24.
    if ((hash[24] as number) % MEAN_BRANCHING === 0) return i + 1;
  }
  return end;
}

let shared: Promise<XetHashing> | undefined;

export function loadXetHashing(): Promise<XetHashing> {
  shared ??= XetHashing.create();
  return shared;
}
