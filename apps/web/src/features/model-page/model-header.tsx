import { memo } from "react";
import { Link } from "react-router";
import { CopyButton } from "../../components/ui/copy-button.js";
import type { ModelInfo } from "../../lib/api/models.js";
import { formatCount } from "../../lib/format.js";
import { taskLabel } from "../../lib/task-labels.js";
import { UseThisModelMenu } from "./use-this-model-menu.js";

const MAX_TAGS = 12;

export const ModelHeader = memo(function ModelHeader({ model }: { model: ModelInfo }) {
  const [owner, ...rest] = model.id.split("/");
  const name = rest.join("/");
  const tags = model.tags.filter((tag) => tag !== model.pipeline_tag && tag !== model.library_name);
  return (
    <header className="flex flex-col gap-3 border-b border-line pb-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          <h1 className="min-w-0 break-words text-xl font-semibold tracking-tight sm:text-2xl">
            <span className="text-muted">{owner}/</span>
            {name}
          </h1>
          <CopyButton text={model.id} what="model id" />
        </div>
        <UseThisModelMenu model={model} />
      </div>
      <dl className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        {model.pipeline_tag ? (
          <div className="flex items-center gap-1">
            <dt className="sr-only">Task</dt>
            <dd>
              <Link
                to={`/models?task=${model.pipeline_tag}`}
                className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-medium text-accent"
              >
                {taskLabel(model.pipeline_tag)}
              </Link>
            </dd>
          </div>
        ) : null}
        {model.library_name ? (
          <div className="flex items-center gap-1">
            <dt className="sr-only">Library</dt>
            <dd>
              <Link
                to={`/models?library=${encodeURIComponent(model.library_name)}`}
                className="rounded-full border border-line px-2.5 py-0.5 text-xs font-medium"
              >
                {model.library_name}
              </Link>
            </dd>
          </div>
        ) : null}
        <div className="flex items-center gap-1 text-muted">
          <dt>Downloads</dt>
          <dd className="font-medium text-ink" data-testid="downloads">
            {formatCount(model.downloads)}
          </dd>
        </div>
        <div className="flex items-center gap-1 text-muted">
          <dt>Likes</dt>
          <dd className="font-medium text-ink" data-testid="likes">
            {formatCount(model.likes)}
          </dd>
        </div>
      </dl>
      {tags.length > 0 ? (
        <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
          {tags.slice(0, MAX_TAGS).map((tag) => (
            <li key={tag} className="rounded border border-line bg-raised px-1.5 py-0.5 text-xs text-muted">
              {tag}
            </li>
          ))}
          {tags.length > MAX_TAGS ? (
            <li className="px-1.5 py-0.5 text-xs text-muted">+{tags.length - MAX_TAGS} more</li>
          ) : null}
        </ul>
      ) : null}
    </header>
  );
});
