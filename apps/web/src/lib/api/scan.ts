import { queryOptions } from "@tanstack/react-query";
import { type RepoRef, repoApiUrl } from "../repo-ref.js";
import { hubGet } from "./hub-fetch.js";

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
