import { ByteReader } from "./byte-reader.js";
import { extensionOf, scanPickleStream } from "./pickle-scanner.js";
import type { ContentScanner, ScannerOutcome } from "./scan-report.js";

/**
 * numpy's .npy files: a magic string, a version, a header (a Python dict literal with descr, fortran_order
 * and shape), then the data. An array whose dtype holds Python objects is written as a pickle after the header
 * (numpy.load runs it with allow_pickle=True): that pickle is scanned. Other arrays are raw bytes: nothing runs.
 */

const NPY_MAGIC = Buffer.from("\x93NUMPY", "latin1");
const MAX_HEADER = 1 << 20;

export interface NpyHeader {
  /** The dtype holds Python objects ("O" anywhere in descr, also inside a structured dtype). */
  hasObject: boolean;
  /** Where the data (or the pickle) starts. */
  dataOffset: number;
}

/** Reads the header from the reader's current position (the start of the .npy). */
export async function readNpyHeader(reader: ByteReader): Promise<NpyHeader | { error: string }> {
  if (!(await reader.ensure(10))) return { error: "truncated .npy: shorter than its magic and version" };
  const prefix = Buffer.from(reader.take(8));
  if (!prefix.subarray(0, 6).equals(NPY_MAGIC))
    return { error: "not a .npy file: no \\x93NUMPY magic at byte 0" };
  const major = prefix[6]!;
  if (major < 1 || major > 3) return { error: `unknown .npy format version ${major}.${prefix[7]}` };
  const widthOfLength = major === 1 ? 2 : 4;
  if (!(await reader.ensure(widthOfLength))) return { error: "truncated .npy header length" };
  const lengthBytes = reader.take(widthOfLength);
  const length = widthOfLength === 2 ? lengthBytes.readUInt16LE(0) : lengthBytes.readUInt32LE(0);
  if (length > MAX_HEADER)
    return { error: `.npy header of ${length} bytes is over the ${MAX_HEADER}-byte limit` };
  const headerStart = reader.offset;
  if (!(await reader.ensure(length)))
    return { error: `truncated .npy header: ${length} bytes announced at byte 8` };
  const header = reader.take(length).toString(major === 3 ? "utf8" : "latin1");
  const descr = /['"]descr['"]\s*:\s*(.*?)\s*,\s*['"](fortran_order|shape)['"]/s.exec(header);
  if (!header.trimStart().startsWith("{") || !descr || !/['"]shape['"]\s*:/.test(header)) {
    return { error: `malformed .npy header at byte ${headerStart}: no descr and shape` };
  }
  // A type string such as '|O', '<O8' or 'O', alone or inside a structured dtype's list of fields.
  const hasObject = /['"][|<>=]?O\d*['"]/.test(descr[1]!);
  return { hasObject, dataOffset: headerStart + length };
}

/** Scans one .npy stream: its header, then the pickle of an object array. */
export async function scanNpy(open: () => Promise<ByteReader>, location?: string): Promise<ScannerOutcome> {
  const reader = await open();
  const header = await readNpyHeader(reader);
  if ("error" in header) {
    await reader.close();
    return { findings: [], couldNotScan: location ? `${location}: ${header.error}` : header.error };
  }
  if (!header.hasObject) {
    await reader.close();
    return { findings: [] };
  }
  let first: ByteReader | undefined = reader;
  const pickleAfterHeader = async () => {
    if (first) {
      const positioned = first;
      first = undefined;
      return positioned;
    }
    const again = await open();
    await again.skip(header.dataOffset);
    return again;
  };
  return scanPickleStream(pickleAfterHeader, location ? { location } : {});
}

export const numpyScanner: ContentScanner = {
  id: "numpy",
  appliesTo(path, head) {
    return head.subarray(0, 6).equals(NPY_MAGIC) || extensionOf(path) === ".npy";
  },
  scan(source) {
    return scanNpy(async () => ByteReader.fromStream(source.open()));
  },
};
