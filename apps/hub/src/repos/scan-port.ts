import type { FileRecord, RepoRecord } from "./repo-records.js";

/**
 * What the repository routes ask of the content scanner (scanning/, docs/decisions/scanning.md), declared here
 * so that the repos domain never reaches the scanner's tables: the scanning domain implements it and the app
 * wires it. Without it, files are listed `unscanned` and always served.
 */

type SafetyLevel = "innocuous" | "suspicious" | "dangerous";

/**
 * The public hub's `securityFileStatus` (huggingface_hub reads it as `RepoFile.security`): `status` is "safe",
 * "suspicious" or "unsafe" once scanned ("safe" too when no content scanner applies to the file's kind),
 * "queued" while the scan waits or runs, "unscanned" when no scan of it is known (no queue row, or no scanner).
 */
export interface SecurityFileStatus {
  status: "safe" | "suspicious" | "unsafe" | "queued" | "unscanned";
  avScan: { virusFound: boolean; virusNames: string[] | null } | null;
  pickleImportScan: {
    highestSafetyLevel: SafetyLevel;
    imports: { module: string; name: string; safety: SafetyLevel }[];
  } | null;
}

/** The public hub's `securityRepoStatus` of a repository's info with `securityStatus=true`. */
export interface SecurityRepoStatus {
  /** Every file of the revision has its report. */
  scansDone: boolean;
  filesWithIssues: { path: string; level: "suspicious" | "unsafe" }[];
}

/** One file's full report, for its page (GET /api/{type}s/{id}/scan/{rev}/{path}). */
export interface FileScanView {
  path: string;
  sha256: string;
  size: number;
  securityFileStatus: SecurityFileStatus;
  /** "queued" | "scanning" | "done" | "waiting" (mirrored content not fetched yet). */
  scanState: string;
  verdict?: string;
  reason?: string;
  scanners: string[];
  findings: { scanner: string; safety: SafetyLevel; message: string; location?: string }[];
  antivirus?: { status: string; virusNames: string[]; reason?: string };
  rulesVersion?: string;
  scannedAt?: string;
  /** The policy in force, and whether this file is served under it. */
  policy: "warn" | "block";
  downloadable: boolean;
  /** An owner's or admin's opt-in to serve it under `block`. */
  allowed?: { by: string; at: string };
}

export type ScannedFile = Pick<FileRecord, "path" | "sha256" | "size">;

export interface RepoScanning {
  /** SCAN_POLICY: under "warn" nothing is refused, so callers may skip what only a refusal needs. */
  readonly policy?: "warn" | "block";
  fileStatuses(files: readonly ScannedFile[]): Promise<Map<string, SecurityFileStatus>>;
  repoStatus(files: readonly ScannedFile[]): Promise<SecurityRepoStatus>;
  report(repo: RepoRecord, file: ScannedFile): Promise<FileScanView>;
  /**
   * Throws UnsafeFileError when the policy refuses to serve this file's bytes (SCAN_POLICY=block, found
   * unsafe, no opt-in). A mirrored file not scanned yet is scanned first (`fetch` brings its content).
   */
  assertServable(repo: RepoRecord, file: ScannedFile, fetch?: () => Promise<void>): Promise<void>;
  /** The same check by content alone (Xet reconstruction, which knows the repository and the sha256). */
  assertContentServable(repoKey: number, sha256: string): Promise<void>;
  allow(repo: RepoRecord, file: ScannedFile, by: string): Promise<FileScanView>;
}
