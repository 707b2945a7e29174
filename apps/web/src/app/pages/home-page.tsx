import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { hubGet } from "../../lib/api/hub-fetch.js";
import { trendingQuery } from "../../lib/api/likes.js";
import { formatAgo } from "../../lib/format.js";
import { type RepoRef, repoPageUrl } from "../../lib/repo-ref.js";

interface RecentRepo {
  id: string;
  lastModified?: string;
}

const KINDS = [
  { type: "model", api: "models", title: "Models" },
  { type: "dataset", api: "datasets", title: "Datasets" },
  { type: "space", api: "spaces", title: "Spaces" },
] as const;

const KIND_LABEL: Record<RepoRef["type"], string> = { model: "Model", dataset: "Dataset", space: "Space" };

function recentQuery(api: string) {
  return {
    queryKey: ["recent", api],
    queryFn: async ({ signal }: { signal: AbortSignal }) =>
      (await hubGet<RecentRepo[]>(`/api/${api}?sort=lastModified&direction=-1&limit=5`, signal)).data,
  };
}

function RepoLink({ repo, detail }: { repo: RepoRef; detail?: string }) {
  return (
    <li className="flex min-w-0 flex-wrap items-baseline justify-between gap-x-3 border-b border-line py-2 last:border-0">
      <Link to={repoPageUrl(repo)} className="min-w-0 break-words font-medium text-accent underline">
        {repo.id}
      </Link>
      {detail ? <span className="text-xs text-muted">{detail}</span> : null}
    </li>
  );
}

/** Recently updated repositories of one kind. */
function Recent({ kind }: { kind: (typeof KINDS)[number] }) {
  const recent = useQuery(recentQuery(kind.api));
  return (
    <section aria-labelledby={`recent-${kind.api}`} className="flex min-w-0 flex-col gap-2">
      <h3 id={`recent-${kind.api}`} className="text-base font-semibold">
        <Link to={`/${kind.api}`} className="hover:underline">
          {kind.title}
        </Link>
      </h3>
      {recent.data?.length ? (
        <ul data-testid={`recent-${kind.api}`}>
          {recent.data.map((repo) => (
            <RepoLink
              key={repo.id}
              repo={{ type: kind.type, id: repo.id }}
              detail={repo.lastModified ? `updated ${formatAgo(repo.lastModified)}` : undefined}
            />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted">{recent.isPending ? "Loading…" : `No ${kind.api} yet.`}</p>
      )}
    </section>
  );
}

/**
 * The landing page: what this hub is, what its users download and like this week (its own counts, never
 * huggingface.co's), and what changed lately.
 */
export function HomePage() {
  const trending = useQuery(trendingQuery(10));
  return (
    <div className="flex flex-col gap-8">
      <title>Modelhub: a self-hosted model hub</title>
      <section className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Modelhub</h1>
        <p className="max-w-prose text-muted">
          A self-hosted hub for models, datasets and spaces. It speaks the Hugging Face Hub's API, so{" "}
          <code>huggingface_hub</code>, <code>transformers</code> and <code>hf</code> work against it: point
          them here with <code>HF_ENDPOINT</code>. Repositories are git repositories with large files; private
          and gated ones stay so on every surface.
        </p>
        <nav aria-label="Browse" className="flex flex-wrap gap-2">
          {KINDS.map((kind) => (
            <Link
              key={kind.api}
              to={`/${kind.api}`}
              className="rounded-full border border-line px-3 py-1 text-sm font-medium hover:bg-raised"
            >
              Browse {kind.title.toLowerCase()}
            </Link>
          ))}
        </nav>
      </section>
      <section aria-labelledby="trending" className="flex flex-col gap-2">
        <h2 id="trending" className="text-lg font-semibold">
          Trending this week
        </h2>
        <p className="text-sm text-muted">By downloads and likes on this hub in the last 7 days.</p>
        {trending.data?.length ? (
          <ol data-testid="trending" className="max-w-3xl">
            {trending.data.map((repo) => (
              <RepoLink
                key={`${repo.type}/${repo.id}`}
                repo={{ type: repo.type, id: repo.id }}
                detail={KIND_LABEL[repo.type]}
              />
            ))}
          </ol>
        ) : (
          <p className="text-sm text-muted">
            {trending.isPending ? "Loading…" : "Nothing downloaded or liked here this week yet."}
          </p>
        )}
      </section>
      <section aria-labelledby="recent" className="flex flex-col gap-3">
        <h2 id="recent" className="text-lg font-semibold">
          Recently updated
        </h2>
        <div className="grid gap-6 md:grid-cols-3">
          {KINDS.map((kind) => (
            <Recent key={kind.api} kind={kind} />
          ))}
        </div>
      </section>
    </div>
  );
}
