import { Link } from "react-router";
import { filesUrls, type RepoRef } from "../../lib/repo-ref.js";

/** `name / folder / file`, each folder a link to its tree at the same revision. */
export function Breadcrumbs({ repo, revision, path }: { repo: RepoRef; revision: string; path: string }) {
  const parts = path ? path.split("/") : [];
  const name = repo.id.split("/")[1] ?? repo.id;
  return (
    <nav aria-label="Path" className="min-w-0 text-sm">
      <ol className="flex flex-wrap items-center gap-1">
        <li>
          <Link to={filesUrls.tree(repo, revision)} className="font-medium text-accent underline">
            {name}
          </Link>
        </li>
        {parts.map((part, index) => {
          const here = parts.slice(0, index + 1).join("/");
          const last = index === parts.length - 1;
          return (
            <li key={here} className="flex min-w-0 items-center gap-1">
              <span aria-hidden="true" className="text-muted">
                /
              </span>
              {last ? (
                <span aria-current="page" className="break-all font-medium">
                  {part}
                </span>
              ) : (
                <Link to={filesUrls.tree(repo, revision, here)} className="break-all text-accent underline">
                  {part}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
