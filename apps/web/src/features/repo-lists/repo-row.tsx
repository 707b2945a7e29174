import { Link } from "react-router";
import type { RepoSummary } from "../../lib/api/repos.js";
import { formatDate } from "../../lib/format.js";
import { type RepoRef, repoPageUrl } from "../../lib/repo-ref.js";

/** One dataset or space of a list: its id, whether it is private, when it changed. */
export function RepoRow({ repo, type }: { repo: RepoSummary; type: RepoRef["type"] }) {
  const updated = formatDate(repo.lastModified);
  return (
    <Link
      to={repoPageUrl({ type, id: repo.id })}
      className="flex h-full flex-col gap-1 rounded-lg border border-line bg-surface p-3 hover:border-accent"
    >
      <span className="truncate font-medium text-ink">{repo.id}</span>
      <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
        {repo.private ? <span className="rounded border border-line px-1">Private</span> : null}
        {repo.gated ? <span className="rounded border border-line px-1">Gated</span> : null}
        {updated ? <span>Updated {updated}</span> : null}
      </span>
    </Link>
  );
}
