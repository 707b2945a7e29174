import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { modelListQuery } from "../../lib/api/models.js";
import { type RepoSummary, repoListQuery } from "../../lib/api/repos.js";
import { canWrite, viewerQuery } from "../../lib/api/session.js";
import type { RepoRef } from "../../lib/repo-ref.js";
import { RepoRow } from "./repo-row.js";

/** How many of each kind an owner's page shows; the rest are one link away (the list, filtered by owner). */
const SHOWN = 12;

const SECTIONS = [
  { type: "model", title: "Models", one: "model", list: "/models", create: "/new" },
  { type: "dataset", title: "Datasets", one: "dataset", list: "/datasets", create: "/new-dataset" },
  { type: "space", title: "Spaces", one: "space", list: "/spaces", create: "/new-space" },
] as const;

/** An owner's models, sorted newest first: the models listing, in the rows the other kinds use. */
function useOwnerModels(owner: string) {
  return useQuery({
    ...modelListQuery({ author: owner, sort: "created", limit: SHOWN }),
    select: (page) => ({
      total: page.total,
      items: page.items.map(
        (model): RepoSummary => ({
          id: model.id,
          author: owner,
          private: model.private === true,
          gated: false,
          likes: model.likes ?? 0,
          downloads: model.downloads ?? 0,
          createdAt: model.createdAt ?? "",
          // A listing's `createdAt` is no "updated" date (a demo copy's is its original's creation, or none).
          lastModified: model.lastModified ?? "",
          tags: model.pipeline_tag ? [model.pipeline_tag] : [],
        }),
      ),
    }),
  });
}

/**
 * A user's or organization's models, datasets and spaces, each with how many there are. Private ones
 * appear only to those who may see them: the hub's listings decide, for the viewer's session.
 */
export function OwnerRepos({ owner }: { owner: string }) {
  const models = useOwnerModels(owner);
  const datasets = useQuery(repoListQuery({ type: "dataset", author: owner, sort: "updated", limit: SHOWN }));
  const spaces = useQuery(repoListQuery({ type: "space", author: owner, sort: "updated", limit: SHOWN }));
  const viewer = useQuery(viewerQuery());
  const mayCreate = canWrite(viewer.data, `${owner}/x`);
  const answers = { model: models, dataset: datasets, space: spaces };
  return (
    <div className="flex flex-col gap-6">
      {SECTIONS.map((section) => {
        const answer = answers[section.type];
        const repos = answer.data?.items ?? [];
        const total = answer.data?.total ?? repos.length;
        const headingId = `${section.type}-repos-heading`;
        return (
          <section key={section.type} aria-labelledby={headingId} data-testid={`owner-${section.type}s`}>
            <div className="mb-2 flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <h2 id={headingId} className="text-lg font-semibold">
                {section.title}{" "}
                <span className="text-sm font-normal text-muted">{answer.isPending ? "" : total}</span>
              </h2>
              {total > repos.length ? (
                <Link
                  to={`${section.list}?author=${encodeURIComponent(owner)}`}
                  className="text-sm text-accent underline"
                >
                  All {total} {section.title.toLowerCase()}
                </Link>
              ) : null}
              {mayCreate ? (
                <Link
                  to={`${section.create}?owner=${encodeURIComponent(owner)}`}
                  className="text-sm text-accent underline"
                >
                  New {section.one}
                </Link>
              ) : null}
            </div>
            {answer.isError ? (
              <p role="alert" className="text-sm text-danger">
                {answer.error.message}
              </p>
            ) : null}
            {!answer.isPending && repos.length === 0 && !answer.isError ? (
              <p className="text-sm text-muted">No {section.title.toLowerCase()} yet.</p>
            ) : null}
            <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3">
              {repos.map((repo) => (
                <li key={repo.id}>
                  <RepoRow repo={repo} type={section.type as RepoRef["type"]} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
