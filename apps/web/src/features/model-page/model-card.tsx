import type { ModelData } from "@modelhub/tasks";
import { Link } from "react-router";
import { filesUrls } from "../../lib/repo-ref.js";
import { Markdown } from "./markdown.js";

export function ModelCard({ model }: { model: ModelData }) {
  if (!model.cardText?.trim()) {
    return (
      <p className="rounded-lg border border-dashed border-line p-8 text-center text-muted">
        This model has no model card yet.{" "}
        <Link
          to={`${filesUrls.newFile({ type: "model", id: model.id }, "main")}?filename=README.md`}
          className="text-accent underline"
        >
          Create one
        </Link>
      </p>
    );
  }
  return (
    <article aria-label="Model card" className="rounded-lg border border-line bg-surface p-4 sm:p-6">
      <Markdown source={model.cardText} />
    </article>
  );
}
