import { createGunzip, createInflate } from "node:zlib";
import { ByteReader } from "./byte-reader.js";
import { OPCODES } from "./pickle-opcodes.js";
import { type PickleReadResult, type RawGlobal, readPickleStream } from "./pickle-reader.js";
import type { ContentScanner, PickleImport, ScannerOutcome, ScanSource } from "./scan-report.js";
import { classifyGlobal } from "./scan-rules.js";

/**
 * The scanner of raw pickle files: plain pickles at protocols 0-5 (several may follow one another), joblib
 * files (numpy arrays written between the opcodes, gzip/zlib-compressed ones too) and PyTorch's legacy raw
 * format (magic number, protocol and sys_info pickles, then the data pickle and the storage keys).
 */

export const PICKLE_EXTENSIONS = [".pkl", ".pickle", ".joblib", ".dill", ".pck"];
/** The suffixes joblib.dump gives compressed files (its `compress=` methods). */
const COMPRESSION_SUFFIXES = [".gz", ".z", ".bz2", ".xz", ".lzma", ".lz4"];
/** torch.save's names; the zip format goes to the archive scanner, the legacy raw one is read here. */
export const PYTORCH_EXTENSIONS = [".bin", ".pt", ".pth", ".ckpt"];

/** The first pickle of torch's legacy raw format: protocol 2, LONG1 0x1950a86a20f9469cfc6c, STOP. */
const LEGACY_TORCH_MAGIC = Buffer.from("80028a0a6cfc9c46f9206aa850192e", "hex");
/** magic, protocol version, sys_info, the data pickle, the storage keys; raw storage bytes follow. */
const LEGACY_TORCH_PICKLES = 5;

export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot) : "";
}

export function isZipHead(head: Buffer): boolean {
  const signature = head.subarray(0, 4).toString("latin1");
  return signature === "PK\x03\x04" || signature === "PK\x05\x06" || signature === "PK\x07\x08";
}

export function isTarHead(head: Buffer): boolean {
  return head.length >= 262 && head.subarray(257, 262).toString("latin1") === "ustar";
}

/** Protocol 2+ pickles start with PROTO; protocol 0/1 ones with a GLOBAL, an INST or a MARK then a container. */
export function looksLikePickle(head: Buffer): boolean {
  if (head.length >= 3 && head[0] === 0x80 && head[1]! <= 5 && OPCODES[head[2]!] !== undefined) return true;
  const text = head.subarray(0, 256).toString("latin1");
  return /^c[\w.]+\n[\w.]+\n/.test(text) || /^\((dp\d|lp\d|i[\w.]+\n|c[\w.]+\n)/.test(text);
}

/** The compressions joblib.dump writes (its `compress=` methods), told apart by their first bytes. */
type Compression = "gzip" | "zlib" | "bz2" | "xz" | "lzma" | "lz4" | undefined;

function compressionOf(head: Buffer): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0x78 && head.length > 1 && (head[0] * 256 + head[1]!) % 31 === 0) return "zlib";
  if (head.subarray(0, 3).toString("latin1") === "BZh") return "bz2";
  if (head.subarray(0, 6).equals(Buffer.from("fd377a585a00", "hex"))) return "xz";
  // joblib's `lzma` is the legacy .lzma ("alone") format: properties 0x5d, then a little-endian dictionary size.
  if (head.subarray(0, 3).equals(Buffer.from("5d0000", "hex"))) return "lzma";
  if (head.subarray(0, 4).equals(Buffer.from("04224d18", "hex"))) return "lz4";
  return undefined;
}

/**
 * Why a compressed pickle is not read. Node's zlib reads gzip and zlib (decompressed as a stream, above); for
 * bz2, xz, lzma and lz4 no maintained streaming decoder is on the index (@napi-rs/lzma decodes whole buffers,
 * which a multi-GiB file rules out), so the file is could-not-scan with this reason rather than guessed at.
 */
export function undecodedCompression(compression: Exclude<Compression, "gzip" | "zlib" | undefined>): string {
  return `${compression}-compressed content (joblib compress="${compression}"): this hub decompresses gzip and zlib only, so the pickle inside is not read and its imports are unknown; re-save it with compress=("gzip", 3) or ("zlib", 3), or as safetensors`;
}

export const pickleScanner: ContentScanner = {
  id: "pickle",
  appliesTo(path, head) {
    if (isZipHead(head) || isTarHead(head) || head.subarray(0, 6).toString("latin1") === "\x93NUMPY")
      return false;
    const extension = extensionOf(path);
    if (PICKLE_EXTENSIONS.includes(extension)) return true;
    if ([".pt", ".pth", ".ckpt"].includes(extension)) return true;
    // joblib names its compressed dumps model.pkl.xz, model.joblib.gz...: a pickle under a compression suffix.
    if (
      COMPRESSION_SUFFIXES.includes(extension) &&
      PICKLE_EXTENSIONS.includes(extensionOf(path.slice(0, -extension.length)))
    )
      return true;
    // .bin (also GGML and raw tensors), .dat, .data, or any other name: read when the content is a pickle.
    return looksLikePickle(head);
  },
  async scan(source) {
    const head = await readHead(source, 64);
    if (head.subarray(0, LEGACY_TORCH_MAGIC.length).equals(LEGACY_TORCH_MAGIC)) {
      return scanPickleStream(streamOpener(source), { maxPickles: LEGACY_TORCH_PICKLES });
    }
    const compression = compressionOf(head);
    if (compression === "gzip" || compression === "zlib") {
      const inflate = async () =>
        ByteReader.fromStream(source.open().pipe(compression === "gzip" ? createGunzip() : createInflate()));
      return scanPickleStream(inflate, { location: `${compression}-compressed content` });
    }
    if (compression) {
      return { findings: [], couldNotScan: undecodedCompression(compression) };
    }
    return scanPickleStream(streamOpener(source));
  },
};

/** Opens a file from its start for one reading. */
export function streamOpener(source: ScanSource): () => Promise<ByteReader> {
  return async () => ByteReader.fromStream(source.open());
}

async function readHead(source: ScanSource, length: number): Promise<Buffer> {
  if (source.size === 0) return Buffer.alloc(0);
  const reader = ByteReader.fromStream(source.open({ start: 0, end: Math.min(length, source.size) - 1 }));
  await reader.ensure(Math.min(length, source.size));
  const head = Buffer.from(reader.take(Math.min(reader.available(), length)));
  await reader.close();
  return head;
}

export interface PickleStreamOptions {
  location?: string;
  maxPickles?: number;
}

/**
 * Scans one pickle stream as `pickle.load` reads it and, when it holds joblib's numpy array wrappers, also as
 * `joblib.load` reads it (array bytes skipped): a file can be given to either, so the imports of both readings
 * count. A malformed first pickle is "could not scan"; data after a complete pickle that is not a pickle is a
 * suspicious finding (a loader reading on would fail there, but what it read before still ran).
 */
export async function scanPickleStream(
  open: () => Promise<ByteReader>,
  options: PickleStreamOptions = {},
): Promise<ScannerOutcome> {
  const plain = await readAll(open, { ...options, joblib: false });
  if (plain.joblibArrays === 0) return toOutcome([plain], plain, options);
  const joblib = await readAll(open, { ...options, joblib: true });
  // Reading joblib's array bytes as opcodes fails by design: the plain reading's error does not count.
  return toOutcome([plain, joblib], joblib, options);
}

async function readAll(
  open: () => Promise<ByteReader>,
  options: PickleStreamOptions & { joblib: boolean },
): Promise<PickleReadResult> {
  const reader = await open();
  try {
    return await readPickleStream(reader, options);
  } finally {
    await reader.close();
  }
}

function toOutcome(
  readings: PickleReadResult[],
  authority: PickleReadResult,
  options: PickleStreamOptions,
): ScannerOutcome {
  const globals: RawGlobal[] = readings.flatMap((reading) => reading.globals);
  const outcome: ScannerOutcome = {
    pickleImports: classifyAll(globals),
    findings: readings.flatMap((reading) => reading.findings),
  };
  const where = options.location ? `${options.location}: ` : "";
  const expectedMore = options.maxPickles !== undefined && authority.pickles < options.maxPickles;
  if (authority.error && (authority.pickles === 0 || expectedMore)) {
    outcome.couldNotScan = `${where}${authority.error}`;
  } else if (authority.error) {
    outcome.findings.push({
      scanner: "pickle",
      safety: "suspicious",
      message: `data after pickle ${authority.pickles} is not a pickle (${authority.error})`,
      ...(options.location ? { location: options.location } : {}),
    });
  }
  return outcome;
}

/** Classifies globals against the rules, deduplicated in first-seen order. */
export function classifyAll(globals: RawGlobal[]): PickleImport[] {
  const seen = new Set<string>();
  const out: PickleImport[] = [];
  for (const { module, name } of globals) {
    const key = `${module}\u0000${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ module, name, safety: classifyGlobal(module, name) });
  }
  return out;
}
