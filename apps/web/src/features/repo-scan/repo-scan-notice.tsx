import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { repoSecurityQuery } from "../../lib/api/scan.js";
import { filesUrls, type RepoRef } from "../../lib/repo-ref.js";

/** Files named in the notice; the rest are counted. */
const LISTED_FILES = 5;

/** The levels of `securityRepoStatus.filesWithIssues` that make a file unsafe to load. */
const UNSAFE_LEVELS = new Set(["unsafe", "dangerous", "infected"]);

/**
 * Above every section of a repository: a notice naming the files of main the scanners found unsafe, each
 * linking to its file page (where the imports and findings are). Nothing when none is.
 */
export function RepoScanNotice({ repo }: { repo: RepoRef }) {
  const security = useQuery(repoSecurityQuery(repo));
  const unsafe = (security.data?.filesWithIssues ?? []).filter((file) =>
    UNSAFE_LEVELS.has(file.level.toLowerCase()),
  );
  if (unsafe.length === 0) return null;
  const more = unsafe.length - LISTED_FILES;
  return (
    <section
      aria-labelledby="scan-notice-heading"
      data-testid="repo-scan-notice"
      className="flex flex-col gap-1 rounded-lg border border-danger/60 bg-danger-soft p-3 text-sm text-ink"
    >
      <h2 id="scan-notice-heading" className="font-semibold text-danger">
        <span aria-hidden="true">✕ </span>
        {unsafe.length === 1
          ? "A file of this repository is unsafe"
          : `${unsafe.length} files of this repository are unsafe`}
      </h2>
      <p>
        Loading {unsafe.length === 1 ? "it" : "them"} can run code on your machine. See what the scan found:
      </p>
      <ul className="flex flex-col gap-0.5">
        {unsafe.slice(0, LISTED_FILES).map((file) => (
          <li key={file.path} className="min-w-0 break-all">
            <Link to={filesUrls.blob(repo, "main", file.path)} className="font-mono text-xs underline">
              {file.path}
            </Link>
          </li>
        ))}
      </ul>
      {more > 0 ? (
        <p className="text-muted">
          and {more} more: see{" "}
          <Link to={filesUrls.tree(repo, "main")} className="underline">
            Files and versions
          </Link>
          .
        </p>
      ) : null}
    </section>
  );
}
