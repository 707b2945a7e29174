import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { DisclosureMenu } from "../../components/ui/disclosure-menu.js";
import { ErrorAlert } from "../../components/ui/query-state.js";
import { lastCommitsQuery, type TreeEntry, treeQuery } from "../../lib/api/repo-files.js";
import { viewerQuery } from "../../lib/api/session.js";
import { formatAgo, formatBytes } from "../../lib/format.js";
import { filesUrls, type RepoRef } from "../../lib/repo-ref.js";
import { ScanBadge } from "../repo-scan/scan-badge.js";
import { Breadcrumbs } from "./breadcrumbs.js";
import { RevisionSwitcher } from "./revision-switcher.js";

/** A folder of a repository at a revision: entries with size, LFS badge and last commit, paged. */
export function FileTree({ repo, revision, dir }: { repo: RepoRef; revision: string; dir: string }) {
  const tree = useInfiniteQuery(treeQuery(repo, revision, dir));
  const viewer = useQuery(viewerQuery());
  const entries = tree.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section aria-labelledby="files-heading" className="flex flex-col gap-3">
      <h2 id="files-heading" className="sr-only">
        Files
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        <RevisionSwitcher repo={repo} revision={revision} urlFor={(rev) => filesUrls.tree(repo, rev, dir)} />
        <Breadcrumbs repo={repo} revision={revision} path={dir} />
        <div className="ml-auto flex items-center gap-2">
          <Link
            to={filesUrls.commits(repo, revision, dir)}
            className="inline-flex h-9 items-center rounded-md border border-line px-3 text-sm font-medium hover:border-accent"
          >
            History
          </Link>
          {viewer.data ? (
            <DisclosureMenu summary="Add file">
              <ul className="flex flex-col">
                <li>
                  <Link
                    to={filesUrls.upload(repo, revision, dir)}
                    className="block rounded px-2 py-1.5 hover:bg-raised"
                  >
                    Upload files
                  </Link>
                </li>
                <li>
                  <Link
                    to={filesUrls.newFile(repo, revision, dir)}
                    className="block rounded px-2 py-1.5 hover:bg-raised"
                  >
                    Create a new file
                  </Link>
                </li>
              </ul>
            </DisclosureMenu>
          ) : null}
        </div>
      </div>
      {tree.isPending ? (
        <p className="text-muted" aria-live="polite">
          Loading files…
        </p>
      ) : tree.isError ? (
        <ErrorAlert message={tree.error.message} />
      ) : entries.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line p-6 text-center text-muted">
          This folder is empty.
        </p>
      ) : (
        <div className="overflow-hidden rounded-lg border border-line">
          <table className="w-full table-fixed text-sm" data-testid="file-tree">
            <thead className="sr-only">
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Size</th>
                <th scope="col">Last commit</th>
              </tr>
            </thead>
            {tree.data?.pages.map((treePage) => (
              <TreePage
                key={treePage.entries[0]?.path ?? "empty"}
                repo={repo}
                revision={revision}
                entries={treePage.entries}
              />
            ))}
          </table>
        </div>
      )}
      {tree.hasNextPage ? (
        <button
          type="button"
          onClick={() => tree.fetchNextPage()}
          disabled={tree.isFetchingNextPage}
          className="self-center rounded-md border border-line px-4 py-2 text-sm font-medium hover:border-accent disabled:opacity-60"
        >
          {tree.isFetchingNextPage ? "Loading…" : "Show more files"}
        </button>
      ) : null}
    </section>
  );
}

/** One page of entries; their last commits and scans arrive in a second request and fill in. */
function TreePage({ repo, revision, entries }: { repo: RepoRef; revision: string; entries: TreeEntry[] }) {
  const lastCommits = useQuery(
    lastCommitsQuery(
      repo,
      revision,
      entries.map((entry) => entry.path),
    ),
  );
  return (
    <tbody>
      {entries.map((entry) => (
        <EntryRow
          key={entry.path}
          repo={repo}
          revision={revision}
          entry={{ ...entry, ...lastCommits.data?.get(entry.path) }}
        />
      ))}
    </tbody>
  );
}

function EntryRow({ repo, revision, entry }: { repo: RepoRef; revision: string; entry: TreeEntry }) {
  const name = entry.path.split("/").pop() ?? entry.path;
  const isDir = entry.type === "directory";
  return (
    <tr className="border-b border-line last:border-b-0">
      <td className="w-1/2 px-3 py-2 sm:w-2/5">
        <span className="flex min-w-0 items-baseline gap-2">
          <span aria-hidden="true" className="text-muted">
            {isDir ? "▸" : "·"}
          </span>
          {/* On a phone the badges go under the name, which keeps the room it needs. */}
          <span className="flex min-w-0 flex-col items-start gap-1 sm:flex-row sm:items-center sm:gap-2">
            <Link
              to={
                isDir
                  ? filesUrls.tree(repo, revision, entry.path)
                  : filesUrls.blob(repo, revision, entry.path)
              }
              className="min-w-0 break-all text-ink underline hover:text-accent sm:truncate sm:break-normal"
            >
              {name}
              {isDir ? <span className="sr-only"> (folder)</span> : null}
            </Link>
            {entry.lfs ? (
              <span
                className="shrink-0 rounded border border-line px-1 text-[11px] font-medium text-muted"
                title="Stored with Git LFS"
              >
                LFS
              </span>
            ) : null}
            {entry.securityFileStatus ? <ScanBadge security={entry.securityFileStatus} /> : null}
          </span>
        </span>
      </td>
      <td className="w-24 px-3 py-2 text-right tabular-nums text-muted">
        {isDir ? "" : formatBytes(entry.size)}
      </td>
      <td className="hidden px-3 py-2 text-muted sm:table-cell">
        {entry.lastCommit ? (
          <span className="flex min-w-0 items-center gap-2">
            <Link
              to={filesUrls.commit(repo, entry.lastCommit.id)}
              className="min-w-0 truncate hover:text-accent underline"
            >
              {entry.lastCommit.title}
            </Link>
            <time dateTime={entry.lastCommit.date} className="ml-auto shrink-0 text-xs">
              {formatAgo(entry.lastCommit.date)}
            </time>
          </span>
        ) : null}
      </td>
    </tr>
  );
}
