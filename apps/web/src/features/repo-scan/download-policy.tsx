import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { allowUnsafeDownload, type FileScanView, fileScanQuery } from "../../lib/api/scan.js";
import { canAdmin, viewerQuery } from "../../lib/api/session.js";
import { formatAgo } from "../../lib/format.js";
import type { RepoRef } from "../../lib/repo-ref.js";

const buttonClass =
  "inline-flex h-8 items-center rounded-md border border-line px-2.5 text-sm font-medium hover:border-accent disabled:opacity-60";

/**
 * What SCAN_POLICY=block means for this file: its downloads refused (and, for its owners and admins, the
 * opt-in, after a confirmation that says what it risks), or the opt-in already given. Nothing under `warn`.
 */
export function DownloadPolicy({
  repo,
  revision,
  report,
}: {
  repo: RepoRef;
  revision: string;
  report: FileScanView;
}) {
  const viewer = useQuery(viewerQuery());
  if (report.policy !== "block") return null;
  if (report.allowed) {
    return (
      <p data-testid="scan-policy" className="rounded-md border border-warn/60 bg-warn-soft p-2 text-warn">
        Downloads of this unsafe file were allowed by {report.allowed.by}{" "}
        <time dateTime={report.allowed.at}>{formatAgo(report.allowed.at)}</time>, although this hub blocks
        unsafe files.
      </p>
    );
  }
  if (report.downloadable) return null;
  return (
    <div
      data-testid="scan-policy"
      className="flex flex-col gap-2 rounded-md border border-danger/60 bg-danger-soft p-2"
    >
      <p className="font-medium text-danger">
        Downloads of this file are refused: this hub blocks files its scanner found unsafe, for everyone
        including the owners.
      </p>
      {canAdmin(viewer.data, repo.id) && viewer.data ? (
        <AllowDownloads repo={repo} revision={revision} path={report.path} csrf={viewer.data.csrfToken} />
      ) : null}
    </div>
  );
}

function AllowDownloads({
  repo,
  revision,
  path,
  csrf,
}: {
  repo: RepoRef;
  revision: string;
  path: string;
  csrf: string;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The confirmation replaces the button that opened it: focus moves to what it asks.
  useEffect(() => {
    if (confirming) heading.current?.focus();
  }, [confirming]);
  const allow = async () => {
    setBusy(true);
    setError(null);
    try {
      const report = await allowUnsafeDownload(repo, revision, path, csrf);
      queryClient.setQueryData(fileScanQuery(repo, revision, path).queryKey, report);
      setConfirming(false);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  if (!confirming) {
    return (
      <button
        type="button"
        className={`${buttonClass} self-start bg-surface`}
        onClick={() => setConfirming(true)}
      >
        Allow downloads of this file…
      </button>
    );
  }
  return (
    <section
      aria-labelledby="allow-heading"
      data-testid="scan-allow-confirm"
      className="flex flex-col gap-2 rounded-md border border-line bg-surface p-3 text-ink"
    >
      <h4 id="allow-heading" ref={heading} tabIndex={-1} className="font-semibold">
        Allow downloads of {path}?
      </h4>
      <p>
        Anyone who may read this repository will be able to download this file, and loading it (with{" "}
        <code className="font-mono text-xs">torch.load</code>,{" "}
        <code className="font-mono text-xs">pickle</code> or a library that uses them) can run the code the
        scanner found on their machine. Allow it only if you know where the file comes from and trust it. The
        opt-in is recorded with your name.
      </p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={`${buttonClass} border-danger/60 text-danger`}
          disabled={busy}
          onClick={allow}
        >
          {busy ? "Allowing…" : "Allow downloads"}
        </button>
        <button type="button" className={buttonClass} onClick={() => setConfirming(false)} disabled={busy}>
          Cancel
        </button>
      </div>
      {error ? (
        <p role="alert" className="text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}
