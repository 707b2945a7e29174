import { Link } from "react-router";
import type { ModelSummary } from "../../lib/api/models.js";
import { formatCount, formatDate } from "../../lib/format.js";
import { modelUrl } from "../../lib/model-url.js";
import { taskLabel } from "../../lib/task-labels.js";

export function ModelRow({ model }: { model: ModelSummary }) {
  // Listings give `createdAt` (a demo copy's is its original's, or none): it is no "updated" date.
  const updated = formatDate(model.lastModified);
  const created = updated ? undefined : formatDate(model.createdAt);
  return (
    <Link
      to={modelUrl(model.id)}
      className="flex h-full flex-col gap-1 rounded-lg border border-line bg-surface p-3 hover:border-accent"
    >
      <span className="truncate font-medium text-ink">{model.id}</span>
      <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
        {model.pipeline_tag ? <span>{taskLabel(model.pipeline_tag)}</span> : null}
        {model.library_name ? <span>{model.library_name}</span> : null}
        {updated ? <span>Updated {updated}</span> : null}
        {created ? <span>Created {created}</span> : null}
        <span>
          <span aria-hidden="true">↓ </span>
          <span className="sr-only">Downloads: </span>
          {formatCount(model.downloads)}
        </span>
        <span>
          <span aria-hidden="true">♥ </span>
          <span className="sr-only">Likes: </span>
          {formatCount(model.likes)}
        </span>
      </span>
    </Link>
  );
}
