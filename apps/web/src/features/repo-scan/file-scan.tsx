import { useQuery } from "@tanstack/react-query";
import { fileScanQuery, type SecurityFileStatus } from "../../lib/api/scan.js";
import type { RepoRef } from "../../lib/repo-ref.js";
import { DownloadPolicy } from "./download-policy.js";
import { ScanPanel } from "./scan-panel.js";

/**
 * The file page's scan: the panel from the entry's `securityFileStatus`, completed by the file's full report
 * (findings, the could-not-scan reason, the download policy) once it arrives. A file nothing scanned has no
 * report worth asking for (and a hub without a scanner answers 503).
 */
export function FileScan({
  repo,
  revision,
  path,
  security,
}: {
  repo: RepoRef;
  revision: string;
  path: string;
  security: SecurityFileStatus | undefined;
}) {
  const report = useQuery({
    ...fileScanQuery(repo, revision, path),
    enabled: security !== undefined && security.status !== "unscanned",
  });
  const current = report.data?.securityFileStatus ?? security;
  return (
    <ScanPanel security={current} report={report.data}>
      {report.data ? <DownloadPolicy repo={repo} revision={revision} report={report.data} /> : null}
    </ScanPanel>
  );
}
