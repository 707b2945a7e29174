import type { Readable } from "node:stream";

/**
 * The shared vocabulary of the scanners (pickle, archives, Keras, headers, secrets, antivirus) and of the
 * scan service that queues files, stores reports and maps them to the public hub's shapes
 * (`securityFileStatus`, `securityRepoStatus`). Scanners never throw for bad input: a file they cannot read
 * gives `could-not-scan` with the reason.
 */

/** How dangerous one import or finding is; the public hub's `pickleImportScan.imports[].safety` values. */
export type SafetyLevel = "innocuous" | "suspicious" | "dangerous";

/** A file's overall verdict. `could-not-scan` is never "safe": the reason says why (malformed, truncated...). */
export type FileVerdict = "safe" | "suspicious" | "unsafe" | "could-not-scan";

/** One global a pickle can import (GLOBAL, STACK_GLOBAL, INST...), classified against the rules data file. */
export interface PickleImport {
  module: string;
  name: string;
  safety: SafetyLevel;
}

/** Something a scanner found that is not a pickle import: a Keras Lambda layer, a secret, a bad header... */
export interface ScanFinding {
  /** The scanner that found it: "pickle", "pytorch", "numpy", "keras", "safetensors", "gguf", "secrets", "clamav". */
  scanner: string;
  safety: SafetyLevel;
  /** Short, for people: "Keras Lambda layer 'lambda_1' runs Python code when the model is loaded". */
  message: string;
  /** Where inside the file, when it helps: an archive member ("archive/data.pkl"), a line number... */
  location?: string;
}

/** The antivirus part. `not-scanned` when no clamd is configured: never reported as clean. */
export interface AntivirusResult {
  status: "clean" | "infected" | "not-scanned" | "error";
  virusNames: string[];
  /** Why it is not-scanned or error. */
  reason?: string;
}

/** What scanning one file's content gives. */
export interface FileScanReport {
  verdict: FileVerdict;
  /** The scanners that read the file (empty when no scanner applies to its name and content). */
  scanners: string[];
  /** Every import found in every pickle inside the file, deduplicated, in first-seen order. */
  pickleImports: PickleImport[];
  findings: ScanFinding[];
  antivirus: AntivirusResult;
  /** Set when verdict is `could-not-scan`: what was wrong ("truncated pickle at byte 812: no STOP opcode"). */
  reason?: string;
}

/**
 * The content to scan: its repository path (for the name-based choice of scanner), its size, and a way to
 * stream it (a byte range when a scanner only needs part, e.g. a zip's central directory). Content is
 * streamed, never loaded whole.
 */
export interface ScanSource {
  path: string;
  size: number;
  /** `end` is inclusive, as in `fs.createReadStream`. */
  open(range?: { start: number; end: number }): Readable;
}

/** What one scanner says about one file; the dispatcher merges these into a `FileScanReport`. */
export interface ScannerOutcome {
  pickleImports?: PickleImport[];
  findings: ScanFinding[];
  /** Set when this scanner could not read the file: malformed, truncated, too deep, over a limit. */
  couldNotScan?: string;
}

/**
 * One content scanner (pickle, PyTorch archive, numpy, joblib, Keras, safetensors, GGUF, secrets). The
 * dispatcher asks each whether it applies from the path and the first bytes (`head`, up to 64 KiB), then
 * runs those that do.
 */
export interface ContentScanner {
  id: string;
  appliesTo(path: string, head: Buffer): boolean;
  scan(source: ScanSource): Promise<ScannerOutcome>;
}
