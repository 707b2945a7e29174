import type { ModelData } from "@modelhub/tasks";
import { Link } from "react-router";
import { filesUrls, type RepoRef, resolveUrl } from "../../lib/repo-ref.js";
import { Markdown } from "./markdown.js";

const KIND: Record<RepoRef["type"], string> = { model: "model", dataset: "dataset", space: "space" };

/** A repository's card: its README without the front matter, or an offer to write one. */
export function RepoCard({ repo, cardText }: { repo: RepoRef; cardText: string | undefined }) {
  if (!cardText?.trim()) {
    return (
      <p className="rounded-lg border border-dashed border-line p-8 text-center text-muted">
        This {KIND[repo.type]} has no {KIND[repo.type]} card yet.{" "}
        <Link to={`${filesUrls.newFile(repo, "main")}?filename=README.md`} className="text-accent underline">
          Create one
        </Link>
      </p>
    );
  }
  return (
    <article
      aria-label={`${KIND[repo.type][0]?.toUpperCase()}${KIND[repo.type].slice(1)} card`}
      className="rounded-lg border border-line bg-surface p-4 sm:p-6"
    >
      <Markdown source={cardText} wholeUrl={resolveUrl(repo, "main", "README.md")} />
    </article>
  );
}

export function ModelCard({ model }: { model: ModelData }) {
  return <RepoCard repo={{ type: "model", id: model.id }} cardText={model.cardText} />;
}
