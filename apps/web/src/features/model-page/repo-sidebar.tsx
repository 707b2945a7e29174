import { Link } from "react-router";
import type { RepoInfo } from "../../lib/api/repos.js";
import { UseThisDataset } from "./use-this-dataset.js";

function list(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.filter((item): item is string => typeof item === "string" && item.length > 0);
}

/** Card fields a dataset or space sidebar shows, each as the public hub's metadata names it. */
const FIELDS: Array<{ key: string; label: string; testId: string }> = [
  { key: "license", label: "License", testId: "license" },
  { key: "language", label: "Languages", testId: "languages" },
  { key: "task_categories", label: "Tasks", testId: "task-categories" },
  { key: "size_categories", label: "Size", testId: "size-categories" },
  { key: "sdk", label: "SDK", testId: "sdk" },
  { key: "sdk_version", label: "SDK version", testId: "sdk-version" },
  { key: "app_file", label: "App file", testId: "app-file" },
];

/** What a dataset's or space's files say: its card's metadata, the models and datasets it names, its files. */
export function RepoSidebar({ info, kind }: { info: RepoInfo; kind: "dataset" | "space" }) {
  const card = info.cardData ?? {};
  const models = list(card.models);
  const datasets = list(card.datasets);
  const rows = FIELDS.map((field) => ({ ...field, values: list(card[field.key]) })).filter(
    (field) => field.values.length > 0,
  );
  return (
    <aside aria-label={`About this ${kind}`} className="flex min-w-0 flex-col gap-4 text-sm">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-2 rounded-lg border border-line bg-surface p-4">
        {rows.map((row) => (
          <div key={row.key} className="contents">
            <dt className="text-muted">{row.label}</dt>
            <dd data-testid={row.testId} className="break-words">
              {row.values.join(", ")}
            </dd>
          </div>
        ))}
        {models.length ? (
          <>
            <dt className="text-muted">Models</dt>
            <dd className="flex min-w-0 flex-col">
              {models.map((model) => (
                <Link key={model} to={`/${model}`} className="break-all text-accent underline">
                  {model}
                </Link>
              ))}
            </dd>
          </>
        ) : null}
        {datasets.length ? (
          <>
            <dt className="text-muted">Datasets</dt>
            <dd className="flex min-w-0 flex-col">
              {datasets.map((dataset) => (
                <Link key={dataset} to={`/datasets/${dataset}`} className="break-all text-accent underline">
                  {dataset}
                </Link>
              ))}
            </dd>
          </>
        ) : null}
        <dt className="text-muted">Files</dt>
        <dd data-testid="file-count">{(info.siblings ?? []).length.toLocaleString("en")}</dd>
      </dl>
      {kind === "dataset" ? <UseThisDataset datasetId={info.id} hubUrl={window.location.origin} /> : null}
    </aside>
  );
}
