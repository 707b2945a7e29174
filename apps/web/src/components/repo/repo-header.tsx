import { useQuery } from "@tanstack/react-query";
import { memo, type ReactNode } from "react";
import { Link } from "react-router";
import { commitsQuery } from "../../lib/api/repo-files.js";
import { formatAgo, formatCount } from "../../lib/format.js";
import { filesUrls, type RepoRef } from "../../lib/repo-ref.js";
import { CopyButton } from "../ui/copy-button.js";
import { LikeButton } from "./like-button.js";

/** `huggingface.co` for `https://huggingface.co`: what the badge names. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const KIND_LABEL: Record<RepoRef["type"], string> = { model: "Model", dataset: "Dataset", space: "Space" };

interface RepoHeaderProps {
  repo: RepoRef;
  private?: boolean;
  gated?: false | string;
  /** A mirrored repository: the badge links to its page upstream. */
  mirror?: { upstream: string; url: string };
  likes?: number;
  downloads?: number;
  /** What only this kind of repository shows beside the counts (a model's task and library). */
  facts?: ReactNode;
  /** Actions at the right of the id (a model's "Use this model" menu). */
  actions?: ReactNode;
  /** Below the counts (a model's tags). */
  children?: ReactNode;
  /** Whether there are commits to show (a model that is only a catalogue record has none). */
  hasCommits?: boolean;
}

/**
 * The header every repository page shares: owner avatar, id, kind, private/gated badges, downloads, likes
 * and the last commit of main.
 */
export const RepoHeader = memo(function RepoHeader(props: RepoHeaderProps) {
  const { repo } = props;
  const [owner = "", ...rest] = repo.id.split("/");
  const name = rest.join("/");
  const last = useQuery({
    ...commitsQuery(repo, "main", 0),
    select: (data) => data.commits[0],
    enabled: props.hasCommits ?? true,
  });
  return (
    <header className="flex flex-col gap-3 border-b border-line pb-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <Link to={`/${encodeURIComponent(owner)}`} className="shrink-0" aria-label={`${owner}'s page`}>
            <img
              src={`/api/avatars/${encodeURIComponent(owner)}`}
              alt=""
              width={28}
              height={28}
              className="size-7 rounded-full"
            />
          </Link>
          <span className="rounded border border-line px-1.5 py-0.5 text-xs font-medium text-muted">
            {KIND_LABEL[repo.type]}
          </span>
          <h1 className="min-w-0 break-words text-xl font-semibold tracking-tight sm:text-2xl">
            <span className="text-muted">{owner}/</span>
            {name}
          </h1>
          <CopyButton text={repo.id} what={`${KIND_LABEL[repo.type].toLowerCase()} id`} />
          {props.private ? (
            <span
              data-testid="private-badge"
              className="rounded-full border border-line bg-raised px-2 py-0.5 text-xs font-medium"
            >
              Private
            </span>
          ) : null}
          {props.mirror ? (
            <a
              data-testid="mirror-badge"
              href={props.mirror.url}
              target="_blank"
              rel="noopener noreferrer"
              title={`A read-only mirror of ${props.mirror.url}`}
              className="rounded-full border border-line bg-raised px-2 py-0.5 text-xs font-medium hover:underline"
            >
              Mirrored from {hostOf(props.mirror.upstream)}
            </a>
          ) : null}
          {props.gated ? (
            <span
              data-testid="gated-badge"
              className="rounded-full border border-line bg-raised px-2 py-0.5 text-xs font-medium"
            >
              Gated ({props.gated})
            </span>
          ) : null}
        </div>
        {props.actions}
      </div>
      <dl className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        {props.facts}
        {(
          [
            // Spaces are not downloaded, as on the public hub (which counts no space downloads).
            ...(repo.type === "space" ? [] : ([["Downloads", "downloads", props.downloads]] as const)),
            // A model that is only a catalogue record has no repository to like.
            ...(props.hasCommits === false ? ([["Likes", "likes", props.likes]] as const) : []),
          ] as const
        ).map(([term, testId, count]) => (
          <div key={testId} className="flex items-center gap-1 text-muted">
            <dt>{term}</dt>
            <dd className="font-medium text-ink" data-testid={testId}>
              {formatCount(count)}
            </dd>
          </div>
        ))}
        {props.hasCommits === false ? null : <LikeButton repo={repo} initial={props.likes} />}
        {last.data ? (
          <div className="flex min-w-0 items-center gap-1 text-muted">
            <dt>Last commit</dt>
            <dd className="min-w-0 truncate" data-testid="last-commit">
              <Link to={filesUrls.commit(repo, last.data.id)} className="text-accent underline">
                {last.data.title}
              </Link>{" "}
              <time dateTime={last.data.date}>{formatAgo(last.data.date)}</time>
            </dd>
          </div>
        ) : null}
      </dl>
      {props.children}
    </header>
  );
});
