import { queryOptions } from "@tanstack/react-query";
import { filePath, type RepoRef, repoApiUrl } from "../repo-ref.js";
import { HubApiError, hubGet, hubSend } from "./hub-fetch.js";

/** How dangerous one pickle import is: the public hub's `pickleImportScan.imports[].safety` values. */
export type SafetyLevel = "innocuous" | "suspicious" | "dangerous";

/** One global a pickle can import, as the hub classified it. */
export interface PickleImportView {
  module: string;
  name: string;
  safety: SafetyLevel;
}

/**
 * A file's scan on tree and paths-info entries with `expand` (the public hub's `securityFileStatus`, which
 * huggingface_hub reads as `RepoFile.security`). `status` is a string the page never trusts blindly: an
 * unknown value is shown as it is, never as safe.
 */
export interface SecurityFileStatus {
  status: string;
  avScan?: { virusFound: boolean; virusNames: string[] | null } | null;
  pickleImportScan?: { highestSafetyLevel?: SafetyLevel | null; imports: PickleImportView[] } | null;
}

/** The statuses of a scan that has not finished: the pages ask again until it has. */
const PENDING_STATUSES = new Set(["pending", "waiting", "queued", "scanning"]);

export function isScanPending(security: SecurityFileStatus | undefined | null): boolean {
  return security ? PENDING_STATUSES.has(security.status.toLowerCase()) : false;
}

/** A repository's scan summary on its info with `securityStatus=true` (the public hub's shape). */
export interface SecurityRepoStatus {
  scansDone: boolean;
  filesWithIssues: Array<{ path: string; level: string }>;
}

/** The repository's scan summary, or null when the hub gives none. */
export const repoSecurityQuery = (repo: RepoRef) =>
  queryOptions({
    queryKey: ["repo-security", repo.type, repo.id],
    queryFn: async ({ signal }): Promise<SecurityRepoStatus | null> => {
      const { data } = await hubGet<{ securityRepoStatus?: SecurityRepoStatus }>(
        `${repoApiUrl(repo)}?securityStatus=true`,
        signal,
      );
      return data.securityRepoStatus ?? null;
    },
    staleTime: 30_000,
  });

/** A finding that is not a pickle import: a Keras Lambda layer, a secret's kind and line, a bad header. */
export interface ScanFindingView {
  scanner: string;
  safety: SafetyLevel;
  message: string;
  location?: string;
}

/** One file's full report (`GET /api/{type}s/{id}/scan/{rev}/{path}`), for its page. */
export interface FileScanView {
  path: string;
  securityFileStatus: SecurityFileStatus;
  /** "queued" | "scanning" | "done" | "waiting" (a mirrored content not fetched yet). */
  scanState: string;
  /** "safe" | "suspicious" | "unsafe" | "could-not-scan" once scanned. */
  verdict?: string;
  /** Why the file could not be scanned. */
  reason?: string;
  scanners: string[];
  findings: ScanFindingView[];
  /** The antivirus in the report's words: `not-scanned` with its reason is never "clean". */
  antivirus?: { status: string; virusNames: string[]; reason?: string };
  scannedAt?: string;
  /** SCAN_POLICY: `warn` serves every file with its status, `block` refuses an unsafe one's bytes. */
  policy: "warn" | "block";
  /** Whether the hub serves this file's bytes under the policy. */
  downloadable: boolean;
  /** An owner's or admin's opt-in to serve it under `block`. */
  allowed?: { by: string; at: string };
}

/** The report's URL: `scan/{rev}/{path}`, or `scan-allow/{rev}/{path}` for the opt-in. */
function scanUrl(repo: RepoRef, action: "scan" | "scan-allow", revision: string, path: string): string {
  return repoApiUrl(repo, `${action}/${encodeURIComponent(revision)}/${filePath(path)}`);
}

/** A file's full report, or null when this hub runs no scanner (it answers 503). */
export const fileScanQuery = (repo: RepoRef, revision: string, path: string) =>
  queryOptions({
    queryKey: ["file-scan", repo.type, repo.id, revision, path],
    queryFn: async ({ signal }): Promise<FileScanView | null> => {
      try {
        return (await hubGet<FileScanView>(scanUrl(repo, "scan", revision, path), signal)).data;
      } catch (error) {
        if (error instanceof HubApiError && (error.status === 503 || error.status === 404)) return null;
        throw error;
      }
    },
    staleTime: 30_000,
    refetchInterval: (query) =>
      query.state.data && isScanPending(query.state.data.securityFileStatus) ? 3_000 : false,
  });

/** The owner's or an admin's opt-in to serve an unsafe file under SCAN_POLICY=block; answers the new report. */
export function allowUnsafeDownload(
  repo: RepoRef,
  revision: string,
  path: string,
  csrfToken: string,
): Promise<FileScanView> {
  return hubSend<FileScanView>("POST", scanUrl(repo, "scan-allow", revision, path), csrfToken);
}
