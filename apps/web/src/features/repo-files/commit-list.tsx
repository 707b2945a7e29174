import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { QueryState } from "../../components/ui/query-state.js";
import { commitsQuery, historyPageParam } from "../../lib/api/repo-files.js";
import { formatAgo } from "../../lib/format.js";
import { filesUrls, type RepoRef } from "../../lib/repo-ref.js";
import { Breadcrumbs } from "./breadcrumbs.js";
import { RevisionSwitcher } from "./revision-switcher.js";

const pageLink = "rounded-md border border-line px-3 py-1.5 text-sm font-medium hover:border-accent";

/**
 * First-parent history at a revision, or the history of one file or folder (`path`), 50 commits a page
 * (`?p=` in the URL).
 */
export function CommitList({
  repo,
  revision,
  path = "",
}: {
  repo: RepoRef;
  revision: string;
  path?: string;
}) {
  const [params] = useSearchParams();
  const page = historyPageParam(params);
  const commits = useQuery(commitsQuery(repo, revision, page, path));
  return (
    <section aria-labelledby="history-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <RevisionSwitcher
          repo={repo}
          revision={revision}
          urlFor={(rev) => filesUrls.commits(repo, rev, path)}
        />
        {path ? <Breadcrumbs repo={repo} revision={revision} path={path} /> : null}
        <h2 id="history-heading" className="text-lg font-semibold">
          {path ? (
            <>
              History of <span className="break-all font-mono text-base">{path}</span>
            </>
          ) : (
            "Commit history"
          )}
        </h2>
        {path ? (
          <Link to={filesUrls.commits(repo, revision)} className="ml-auto text-sm text-accent underline">
            Whole history
          </Link>
        ) : null}
      </div>
      <QueryState query={commits} loading="Loading commits…">
        {(data) => (
          <>
            {data.commits.length === 0 ? (
              <p className="rounded-lg border border-dashed border-line p-6 text-center text-muted">
                No commits on this page.
              </p>
            ) : null}
            <ol
              className="overflow-hidden rounded-lg border border-line empty:hidden"
              data-testid="commit-list"
            >
              {data.commits.map((commit) => (
                <li
                  key={commit.id}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line px-3 py-2 last:border-b-0"
                >
                  <Link
                    to={filesUrls.commit(repo, commit.id)}
                    className="min-w-0 flex-1 font-medium hover:text-accent underline"
                  >
                    {commit.title}
                  </Link>
                  <span className="text-sm text-muted">
                    {commit.authors.map((author) => author.user).join(", ")} ·{" "}
                    <time dateTime={commit.date}>{formatAgo(commit.date)}</time>
                  </span>
                  <Link
                    to={filesUrls.commit(repo, commit.id)}
                    className="font-mono text-xs text-muted hover:text-accent"
                  >
                    <span className="sr-only">Commit </span>
                    {commit.id.slice(0, 7)}
                  </Link>
                  <Link to={filesUrls.tree(repo, commit.id)} className="text-xs text-accent underline">
                    Browse files<span className="sr-only"> at {commit.id.slice(0, 7)}</span>
                  </Link>
                </li>
              ))}
            </ol>
            <nav aria-label="Pages of history" className="flex items-center justify-center gap-2">
              {page > 0 ? (
                <Link to={`?p=${page - 1}`} className={pageLink}>
                  Newer
                </Link>
              ) : null}
              <span className="text-sm text-muted">Page {page + 1}</span>
              {data.hasNext ? (
                <Link to={`?p=${page + 1}`} className={pageLink}>
                  Older
                </Link>
              ) : null}
            </nav>
          </>
        )}
      </QueryState>
    </section>
  );
}
