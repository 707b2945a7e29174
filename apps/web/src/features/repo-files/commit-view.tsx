import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { ErrorAlert, QueryState } from "../../components/ui/query-state.js";
import { compareQuery } from "../../lib/api/compare.js";
import { commitsQuery } from "../../lib/api/repo-files.js";
import { formatAgo } from "../../lib/format.js";
import { filesUrls, type RepoRef } from "../../lib/repo-ref.js";
import { DiffView } from "./diff-view.js";

/** One commit: title, message, author, date, parent, then every changed file with its diff. */
export function CommitView({ repo, oid }: { repo: RepoRef; oid: string }) {
  // The history starting at the commit: its first entry is the commit itself.
  const commit = useQuery({ ...commitsQuery(repo, oid, 0), select: (data) => data.commits[0] });
  const comparison = useQuery(compareQuery(repo, encodeURIComponent(oid)));
  return (
    <section aria-labelledby="commit-heading" className="flex flex-col gap-4">
      {commit.isError ? (
        <ErrorAlert message={commit.error.message} />
      ) : (
        <header className="flex flex-col gap-1 rounded-lg border border-line bg-surface p-4">
          <h2 id="commit-heading" className="text-lg font-semibold break-words">
            {commit.data?.title ?? `Commit ${oid.slice(0, 7)}`}
          </h2>
          {commit.data?.message && commit.data.message !== commit.data.title ? (
            <p className="whitespace-pre-wrap text-sm text-muted">{commit.data.message}</p>
          ) : null}
          <p className="flex flex-wrap gap-x-3 text-sm text-muted">
            {commit.data ? (
              <>
                <span>{commit.data.authors.map((author) => author.user).join(", ")}</span>
                <time dateTime={commit.data.date}>{formatAgo(commit.data.date)}</time>
              </>
            ) : null}
            <span className="font-mono text-xs break-all">{oid}</span>
            {comparison.data?.base ? (
              <span>
                parent{" "}
                <Link
                  to={filesUrls.commit(repo, comparison.data.base.oid)}
                  className="font-mono text-xs text-accent"
                >
                  {comparison.data.base.oid.slice(0, 7)}
                </Link>
              </span>
            ) : null}
            <Link to={filesUrls.tree(repo, oid)} className="text-accent underline">
              Browse files
            </Link>
          </p>
        </header>
      )}
      <QueryState query={comparison} loading="Loading changes…">
        {(data) => (
          <>
            <p className="text-sm text-muted">
              {data.files.length} changed file{data.files.length === 1 ? "" : "s"}
              {data.truncated ? " (list cut: too many files)" : ""}
            </p>
            <DiffView files={data.files} />
          </>
        )}
      </QueryState>
    </section>
  );
}
