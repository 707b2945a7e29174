import { Link } from "react-router";
import type { RepoSummary } from "../../lib/api/repos.js";
import { formatDate } from "../../lib/format.js";
import { type RepoRef, repoPageUrl } from "../../lib/repo-ref.js";

/** Tags a row shows at most: the card may list dozens; the page shows them all. */
const MAX_ROW_TAGS = 4;

/** The card tags worth a row's space: not the SDK (its own badge), `field:value` tags shown by value. */
function rowTags(repo: RepoSummary): string[] {
  return repo.tags
    .filter((tag) => tag !== repo.sdk)
    .map((tag) => (tag.includes(":") ? tag.slice(tag.indexOf(":") + 1) : tag))
    .filter((tag, index, all) => all.indexOf(tag) === index)
    .slice(0, MAX_ROW_TAGS);
}

/** One dataset or space of a list: its id, a space's SDK, its card tags, whether it is private, when it changed. */
export function RepoRow({ repo, type }: { repo: RepoSummary; type: RepoRef["type"] }) {
  const updated = formatDate(repo.lastModified);
  // A model's listing has no `lastModified`: when it was made is the date there is.
  const created = updated ? undefined : formatDate(repo.createdAt);
  const tags = rowTags(repo);
  return (
    <Link
      to={repoPageUrl({ type, id: repo.id })}
      className="flex h-full min-w-0 flex-col gap-1 rounded-lg border border-line bg-surface p-3 hover:border-accent"
    >
      <span className="truncate font-medium text-ink">{repo.id}</span>
      <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
        {repo.sdk ? (
          <span className="rounded bg-accent-soft px-1 font-medium text-ink">{repo.sdk}</span>
        ) : null}
        {repo.private ? <span className="rounded border border-line px-1">Private</span> : null}
        {repo.gated ? <span className="rounded border border-line px-1">Gated</span> : null}
        {updated ? <span>Updated {updated}</span> : null}
        {created ? <span>Created {created}</span> : null}
      </span>
      {tags.length ? (
        <ul aria-label="Tags" className="flex flex-wrap gap-1 text-xs text-muted">
          {tags.map((tag) => (
            <li key={tag} className="max-w-full truncate rounded border border-line px-1">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
    </Link>
  );
}
