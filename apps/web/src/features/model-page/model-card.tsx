import type { ModelData } from "@modelhub/tasks";
import { useLayoutEffect } from "react";
import { Link } from "react-router";
import { replaceFirstView } from "../../lib/first-view.js";
import { filesUrls, type RepoRef, resolveUrl } from "../../lib/repo-ref.js";
import { Markdown } from "./markdown.js";

const KIND: Record<RepoRef["type"], string> = { model: "model", dataset: "dataset", space: "space" };

/** Whether a repository's file list has a README.md at its root (the card's file). */
function hasReadme(siblings: Array<{ rfilename: string }> | undefined): boolean {
  return (siblings ?? []).some((sibling) => sibling.rfilename === "README.md");
}

/**
 * A repository's card: its README without the front matter, or an offer to write one. A README with front
 * matter but no text opens in the editor (front matter and all): "create" would replace it.
 */
export function RepoCard({
  repo,
  cardText,
  siblings,
}: {
  repo: RepoRef;
  cardText: string | undefined;
  siblings: Array<{ rfilename: string }> | undefined;
}) {
  const noCard = !cardText?.trim();
  // No card to show: the hub wrote no first view of one, but one of another revision may be there.
  useLayoutEffect(() => {
    if (noCard) replaceFirstView();
  }, [noCard]);
  if (!cardText?.trim()) {
    const readme = hasReadme(siblings);
    return (
      <p className="rounded-lg border border-dashed border-line p-8 text-center text-muted">
        {readme
          ? `This ${KIND[repo.type]}'s README.md has metadata but no text yet. `
          : `This ${KIND[repo.type]} has no ${KIND[repo.type]} card yet. `}
        <Link
          to={
            readme
              ? filesUrls.edit(repo, "main", "README.md")
              : `${filesUrls.newFile(repo, "main")}?filename=README.md`
          }
          className="text-accent underline"
        >
          {readme ? "Write the card" : "Create one"}
        </Link>
      </p>
    );
  }
  return (
    <div className="flex min-w-0 flex-col gap-2">
      {hasReadme(siblings) ? (
        <Link
          to={filesUrls.edit(repo, "main", "README.md")}
          className="self-end text-sm text-accent underline"
        >
          Edit {KIND[repo.type]} card
        </Link>
      ) : null}
      <article
        aria-label={`${KIND[repo.type][0]?.toUpperCase()}${KIND[repo.type].slice(1)} card`}
        className="rounded-lg border border-line bg-surface p-4 sm:p-6"
      >
        <Markdown source={cardText} wholeUrl={resolveUrl(repo, "main", "README.md")} />
      </article>
    </div>
  );
}

export function ModelCard({ model }: { model: ModelData }) {
  return (
    <RepoCard repo={{ type: "model", id: model.id }} cardText={model.cardText} siblings={model.siblings} />
  );
}
