import { PassThrough, type Readable } from "node:stream";
import tar from "tar-stream";
import { ByteReader } from "./byte-reader.js";
import { scanNpy } from "./numpy-scanner.js";
import { type PickleValue, readPickleStream } from "./pickle-reader.js";
import {
  classifyAll,
  extensionOf,
  isTarHead,
  looksLikePickle,
  PICKLE_EXTENSIONS,
  scanPickleStream,
} from "./pickle-scanner.js";
import type { ContentScanner, ScanFinding, ScannerOutcome } from "./scan-report.js";

/**
 * Tar archives, read as one stream (tar has no index): PyTorch's legacy tar format (members sys_info and
 * pickle, plus storages and tensors, which interleave small pickles with raw data) and any other tar whose
 * members a loader unpickles (pickle-named or pickle-looking members, e.g. webdataset's .pickle/.pyd).
 */

const SNIFF_BYTES = 64;
const MAX_RECORDS = 10_000_000;
/** Bytes per element of torch's legacy storage types, by class name. */
const STORAGE_ELEMENT_SIZE: Record<string, number> = {
  DoubleStorage: 8,
  FloatStorage: 4,
  HalfStorage: 2,
  LongStorage: 8,
  IntStorage: 4,
  ShortStorage: 2,
  CharStorage: 1,
  ByteStorage: 1,
  BoolStorage: 1,
  BFloat16Storage: 2,
  ComplexFloatStorage: 8,
  ComplexDoubleStorage: 16,
  QInt8Storage: 1,
  QUInt8Storage: 1,
  QInt32Storage: 4,
};

export const tarScanner: ContentScanner = {
  id: "tar",
  appliesTo(_path, head) {
    return isTarHead(head);
  },
  scan(source) {
    return new Promise<ScannerOutcome>((resolve) => {
      const outcome: ScannerOutcome = { pickleImports: [], findings: [] };
      const extract = tar.extract();
      const input = source.open();
      let settled = false;
      const finish = (couldNotScan?: string) => {
        if (settled) return;
        settled = true;
        if (couldNotScan && !outcome.couldNotScan) outcome.couldNotScan = couldNotScan;
        input.destroy();
        resolve(outcome);
      };
      extract.on("entry", (header, entryStream, next) => {
        // The entry is a streamx stream: piped into a Node one the reader can iterate without destroying it,
        // then drained; the extractor moves on once the entry ended and its scan finished.
        const member = new PassThrough();
        let ended = false;
        let scanned = false;
        const moveOn = () => {
          if (ended && scanned) next();
        };
        entryStream.on("end", () => {
          ended = true;
          moveOn();
        });
        entryStream.pipe(member);
        scanTarMember(header.name, header.type ?? "file", member)
          .then((found) => {
            if (found) {
              outcome.pickleImports!.push(...(found.pickleImports ?? []));
              outcome.findings.push(...found.findings);
              if (found.couldNotScan && !outcome.couldNotScan) outcome.couldNotScan = found.couldNotScan;
            }
            scanned = true;
            member.resume();
            moveOn();
          })
          .catch((error: Error) => finish(`${header.name}: ${error.message}`));
      });
      extract.on("finish", () => finish());
      extract.on("error", (error: Error) => finish(`malformed tar archive: ${error.message}`));
      input.on("error", (error: Error) => finish(`could not read the file: ${error.message}`));
      input.pipe(extract);
    });
  },
};

async function scanTarMember(
  name: string,
  type: string,
  stream: Readable,
): Promise<ScannerOutcome | undefined> {
  if (type !== "file" && type !== "contiguous-file") return undefined;
  const base = name.slice(name.lastIndexOf("/") + 1);
  const reader = ByteReader.fromStream(stream, 0, true);
  try {
    return await scanTarMemberContent(name, base, reader);
  } finally {
    await reader.close();
  }
}

async function scanTarMemberContent(
  name: string,
  base: string,
  reader: ByteReader,
): Promise<ScannerOutcome | undefined> {
  if (base === "storages") return scanLegacyStorages(reader, name);
  if (base === "tensors") return scanLegacyTensors(reader, name);
  await reader.ensure(SNIFF_BYTES);
  const sniffed = Buffer.from(reader.take(Math.min(SNIFF_BYTES, reader.available())));
  const extension = extensionOf(name);
  const isNpy = sniffed.subarray(0, 6).toString("latin1") === "\x93NUMPY";
  const named = base === "sys_info" || base === "pickle" || PICKLE_EXTENSIONS.includes(extension);
  if (!isNpy && extension !== ".npy" && !named && !looksLikePickle(sniffed)) return undefined;
  // The member can be read once: hand the reader back with the sniffed bytes in front.
  const replay = ByteReader.fromStream(prepend(sniffed, reader));
  let used = false;
  const once = async () => {
    if (used) throw new Error("a tar member can be read once");
    used = true;
    return replay;
  };
  if (isNpy || extension === ".npy") return scanNpy(once, name);
  return scanPickleStream(once, { location: name });
}

async function* prepend(first: Buffer, rest: ByteReader): AsyncGenerator<Buffer> {
  if (first.length > 0) yield first;
  for (;;) {
    const available = rest.available();
    if (available > 0) {
      yield Buffer.from(rest.take(available));
      continue;
    }
    if (await rest.atEnd()) return;
  }
}

/** Reads one pickle from the reader's position; its globals and findings go into `into`. */
async function onePickle(
  reader: ByteReader,
  location: string,
  into: { globals: Array<{ module: string; name: string }>; findings: ScanFinding[] },
): Promise<{ value?: PickleValue; error?: string }> {
  const read = await readPickleStream(reader, { maxPickles: 1, location });
  into.globals.push(...read.globals);
  into.findings.push(...read.findings);
  if (read.error || read.pickles === 0) return { error: read.error ?? "no pickle" };
  return { value: read.lastValue };
}

function intOf(value: PickleValue | undefined): number | undefined {
  return value?.t === "int" && value.n >= 0 ? value.n : undefined;
}

/** What a legacy record section's pickles import, and its outcome (with where it stopped, when it did). */
function legacyRecords(location: string) {
  const into = { globals: [] as Array<{ module: string; name: string }>, findings: [] as ScanFinding[] };
  const done = (couldNotScan?: string): ScannerOutcome => ({
    pickleImports: classifyAll(into.globals),
    findings: into.findings,
    ...(couldNotScan ? { couldNotScan: `${location}: ${couldNotScan}` } : {}),
  });
  return { into, done };
}

/** `storages`: a count, then per storage a pickle of (key, location, storage type), an int64 count and raw elements. */
async function scanLegacyStorages(reader: ByteReader, location: string): Promise<ScannerOutcome> {
  const { into, done } = legacyRecords(location);
  const count = await onePickle(reader, location, into);
  const storages = intOf(count.value);
  if (count.error || storages === undefined || storages > MAX_RECORDS)
    return done(count.error ?? "no storage count");
  for (let i = 0; i < storages; i++) {
    const args = await onePickle(reader, location, into);
    if (args.error) return done(args.error);
    const type = args.value?.t === "tuple" ? args.value.items?.[2] : undefined;
    const elementSize = type?.t === "global" ? STORAGE_ELEMENT_SIZE[type.name] : undefined;
    if (elementSize === undefined)
      return done(`storage ${i} has no known storage type at byte ${reader.offset}`);
    if (!(await reader.ensure(8))) return done(`truncated storage ${i} at byte ${reader.offset}`);
    const elements = Number(reader.take(8).readBigInt64LE(0));
    if (elements < 0 || !(await reader.skip(elements * elementSize)))
      return done(`truncated storage ${i} data`);
  }
  return done();
}

/** `tensors`: a count, then per tensor a key pickle, a (storage id, type) pickle and its sizes, strides, offset. */
async function scanLegacyTensors(reader: ByteReader, location: string): Promise<ScannerOutcome> {
  const { into, done } = legacyRecords(location);
  const count = await onePickle(reader, location, into);
  const tensors = intOf(count.value);
  if (count.error || tensors === undefined || tensors > MAX_RECORDS)
    return done(count.error ?? "no tensor count");
  for (let i = 0; i < tensors; i++) {
    for (let part = 0; part < 2; part++) {
      const read = await onePickle(reader, location, into);
      if (read.error) return done(read.error);
    }
    if (!(await reader.ensure(8))) return done(`truncated tensor ${i} at byte ${reader.offset}`);
    const dimensions = reader.take(8).readInt32LE(0);
    if (dimensions < 0 || dimensions > 64) return done(`tensor ${i} with ${dimensions} dimensions`);
    if (!(await reader.skip(16 * dimensions + 8))) return done(`truncated tensor ${i}`);
  }
  return done();
}
