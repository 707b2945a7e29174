import { useQuery } from "@tanstack/react-query";
import { fileScanQuery, isScanPending, type SecurityFileStatus } from "../../lib/api/scan.js";
import type { RepoRef } from "../../lib/repo-ref.js";

/**
 * Whether the hub serves this file's bytes to the page: under SCAN_POLICY=block an unsafe file is refused
 * (and a download waits for a scan still running), so the page asks the file's report before it fetches an
 * unsafe or pending file's content. "waiting" until the report says.
 */
export function useServable(
  repo: RepoRef,
  revision: string,
  path: string,
  security: SecurityFileStatus | undefined,
): "yes" | "no" | "waiting" {
  const mayBeRefused = security !== undefined && (security.status === "unsafe" || isScanPending(security));
  // The same query (and cache entry) as the scan panel's.
  const report = useQuery({ ...fileScanQuery(repo, revision, path), enabled: mayBeRefused });
  if (!mayBeRefused) return "yes";
  if (report.isError || report.data === null) return "yes";
  if (!report.data || isScanPending(report.data.securityFileStatus)) return "waiting";
  return report.data.downloadable ? "yes" : "no";
}
