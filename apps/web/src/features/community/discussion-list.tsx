import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { QueryState } from "../../components/ui/query-state.js";
import { Select } from "../../components/ui/select.js";
import { DISCUSSIONS_PAGE_SIZE, type DiscussionFilter, discussionsQuery } from "../../lib/api/discussions.js";
import { viewerQuery } from "../../lib/api/session.js";
import { formatAgo } from "../../lib/format.js";
import { type RepoRef, repoPageUrl } from "../../lib/repo-ref.js";
import { NewDiscussionForm } from "./new-discussion-form.js";
import { StatusBadge } from "./status-badge.js";

const TYPES = [
  { value: "all", label: "All" },
  { value: "pull_request", label: "Pull requests" },
  { value: "discussion", label: "Discussions" },
] as const;
const STATUSES = [
  { value: "open", label: "Open" },
  { value: "closed", label: "Closed" },
  { value: "all", label: "Any status" },
] as const;

/** The community tab: pull requests and discussions, filtered and paged through the URL. */
export function DiscussionList({ repo }: { repo: RepoRef }) {
  const [params, setParams] = useSearchParams();
  const filter: DiscussionFilter = {
    type: (TYPES.find((type) => type.value === params.get("type"))?.value ??
      "all") as DiscussionFilter["type"],
    status: (STATUSES.find((status) => status.value === params.get("status"))?.value ??
      "open") as DiscussionFilter["status"],
  };
  const page = Math.max(0, Number.parseInt(params.get("p") ?? "0", 10) || 0);
  const list = useQuery(discussionsQuery(repo, filter, page));
  const viewer = useQuery(viewerQuery());
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    next.delete("p");
    setParams(next);
  };
  return (
    <section aria-labelledby="community-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <h2 id="community-heading" className="mr-auto text-lg font-semibold">
          Community
        </h2>
        <Select
          label="Kind"
          value={filter.type}
          options={TYPES}
          onValueChange={(value) => set("type", value)}
        />
        <Select
          label="Status"
          value={filter.status}
          options={STATUSES}
          onValueChange={(value) => set("status", value)}
        />
      </div>
      <QueryState query={list}>
        {(data) =>
          data.discussions.length === 0 ? (
            <p className="rounded-lg border border-dashed border-line p-6 text-center text-muted">
              Nothing here yet.
            </p>
          ) : (
            <ul className="overflow-hidden rounded-lg border border-line" data-testid="discussion-list">
              {data.discussions.map((item) => (
                <li
                  key={item.num}
                  className="flex flex-wrap items-center gap-2 border-b border-line px-3 py-2 last:border-b-0"
                >
                  <StatusBadge status={item.status} />
                  <span className="text-xs text-muted">
                    {item.isPullRequest ? "Pull request" : "Discussion"}
                  </span>
                  <Link
                    to={repoPageUrl(repo, `discussions/${item.num}`)}
                    className="min-w-0 flex-1 font-medium break-words hover:text-accent underline"
                  >
                    {item.title}
                  </Link>
                  <span className="text-sm text-muted">
                    #{item.num} by {item.author.name} ·{" "}
                    <time dateTime={item.createdAt}>{formatAgo(item.createdAt)}</time> · {item.numComments}{" "}
                    comment{item.numComments === 1 ? "" : "s"}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {list.data && (page > 0 || list.data.count > (page + 1) * DISCUSSIONS_PAGE_SIZE) ? (
        <nav aria-label="Pages of the community list" className="flex justify-center gap-2">
          {page > 0 ? (
            <Link
              to={`?${withPage(params, page - 1)}`}
              className="rounded-md border border-line px-3 py-1.5 text-sm"
            >
              Newer
            </Link>
          ) : null}
          {list.data.count > (page + 1) * DISCUSSIONS_PAGE_SIZE ? (
            <Link
              to={`?${withPage(params, page + 1)}`}
              className="rounded-md border border-line px-3 py-1.5 text-sm"
            >
              Older
            </Link>
          ) : null}
        </nav>
      ) : null}
      {viewer.data ? <NewDiscussionForm repo={repo} csrfToken={viewer.data.csrfToken} /> : null}
    </section>
  );
}

function withPage(params: URLSearchParams, page: number): string {
  const next = new URLSearchParams(params);
  next.set("p", String(page));
  return next.toString();
}
