import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "react-router";
import { LabelledText } from "../../components/ui/labelled-text.js";
import { ErrorAlert, QueryState } from "../../components/ui/query-state.js";
import { compareQuery } from "../../lib/api/compare.js";
import type { DiscussionDetails, DiscussionEvent } from "../../lib/api/discussions.js";
import { discussionQuery } from "../../lib/api/discussions.js";
import { hubSend } from "../../lib/api/hub-fetch.js";
import { canWrite, type Viewer, viewerQuery } from "../../lib/api/session.js";
import { formatAgo } from "../../lib/format.js";
import { queryClient } from "../../lib/query-client.js";
import { filesUrls, type RepoRef, repoApiUrl, repoPageUrl } from "../../lib/repo-ref.js";
import { usePendingAction } from "../../lib/use-pending-action.js";
import { Markdown } from "../model-page/markdown.js";
import { DiffView } from "../repo-files/diff-view.js";
import { StatusBadge } from "./status-badge.js";

/** A discussion or pull request: its events, the PR's commits and diff, comment, merge, close/reopen. */
export function DiscussionView({ repo, num }: { repo: RepoRef; num: number }) {
  const details = useQuery(discussionQuery(repo, num));
  const viewer = useQuery(viewerQuery());
  if (details.isPending) return <p className="text-muted">Loading #{num}…</p>;
  if (details.isError) {
    return <ErrorAlert message={details.error.message} />;
  }
  const discussion = details.data;
  return (
    <article aria-labelledby="discussion-heading" className="flex flex-col gap-4">
      <header className="flex flex-col gap-2 border-b border-line pb-3">
        <Link to={repoPageUrl(repo, "discussions")} className="text-sm text-accent underline">
          ← Community
        </Link>
        <h2 id="discussion-heading" className="text-xl font-semibold break-words">
          {discussion.title} <span className="text-muted">#{discussion.num}</span>
        </h2>
        <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
          <StatusBadge status={discussion.status} />
          {discussion.isPullRequest ? "Pull request" : "Discussion"} by {discussion.author.name} ·{" "}
          <time dateTime={discussion.createdAt}>{formatAgo(discussion.createdAt)}</time>
          {discussion.changes ? (
            <span>
              into <span className="font-mono">{discussion.changes.base.replace(/^refs\/heads\//, "")}</span>{" "}
              from <span className="font-mono">refs/pr/{discussion.num}</span>
            </span>
          ) : null}
        </p>
      </header>
      <ol className="flex flex-col gap-3" aria-label="Conversation">
        {discussion.events.map((event) => (
          <EventItem key={event.id} repo={repo} event={event} />
        ))}
      </ol>
      {discussion.isPullRequest && discussion.changes ? (
        <PullRequestFiles repo={repo} discussion={discussion} />
      ) : null}
      {viewer.data ? <Actions repo={repo} discussion={discussion} viewer={viewer.data} /> : null}
    </article>
  );
}

function EventItem({ repo, event }: { repo: RepoRef; event: DiscussionEvent }) {
  const when = <time dateTime={event.createdAt}>{formatAgo(event.createdAt)}</time>;
  if (event.type === "comment") {
    return (
      <li className="rounded-lg border border-line bg-surface">
        <p className="border-b border-line bg-raised px-3 py-1.5 text-sm text-muted">
          <span className="font-medium text-ink">{event.author.name}</span> · {when}
          {event.data.edited ? " · edited" : ""}
        </p>
        <div className="px-3 py-1">
          {event.data.hidden ? (
            <p className="py-2 text-sm text-muted">This comment was hidden.</p>
          ) : (
            <Markdown source={event.data.latest?.raw ?? ""} />
          )}
        </div>
      </li>
    );
  }
  const text =
    event.type === "commit" ? (
      <>
        committed{" "}
        {event.data.oid ? (
          <Link to={filesUrls.commit(repo, event.data.oid)} className="text-accent underline">
            {event.data.subject}
          </Link>
        ) : (
          event.data.subject
        )}
      </>
    ) : event.type === "status-change" ? (
      <>changed the status to {event.data.status}</>
    ) : event.type === "title-change" ? (
      <>
        renamed it from “{event.data.from}” to “{event.data.to}”
      </>
    ) : (
      event.type
    );
  return (
    <li className="px-3 text-sm text-muted" data-event={event.type}>
      <span className="font-medium text-ink">{event.author.name}</span> {text} · {when}
    </li>
  );
}

function PullRequestFiles({ repo, discussion }: { repo: RepoRef; discussion: DiscussionDetails }) {
  const changes = discussion.changes;
  // Merged: what the merge brought; otherwise the PR's head against the base it started from.
  const range = changes ? `${changes.baseOid}..${changes.headOid}` : "";
  const comparison = useQuery({ ...compareQuery(repo, range), enabled: Boolean(changes) });
  return (
    <section aria-labelledby="files-changed" className="flex flex-col gap-2">
      <h3 id="files-changed" className="text-lg font-semibold">
        Files changed
      </h3>
      {discussion.filesWithConflicts.length > 0 ? (
        <p role="alert" className="rounded-md bg-warn-soft p-3 text-sm text-warn">
          Conflicts with the base branch: {discussion.filesWithConflicts.join(", ")}
        </p>
      ) : null}
      <QueryState query={comparison} loading="Loading changes…">
        {(data) =>
          data.files.length === 0 ? (
            <p className="text-muted">No changes yet.</p>
          ) : (
            <DiffView files={data.files} />
          )
        }
      </QueryState>
    </section>
  );
}

function Actions({
  repo,
  discussion,
  viewer,
}: {
  repo: RepoRef;
  discussion: DiscussionDetails;
  viewer: Viewer;
}) {
  const id = useId();
  const [comment, setComment] = useState("");
  const pending = usePendingAction();
  const { busy, error } = pending;
  const writer = canWrite(viewer, repo.id);
  const mayClose = writer || discussion.author.name === viewer.name;
  const base = repoApiUrl(repo, `discussions/${discussion.num}`);
  const run = (action: () => Promise<unknown>) =>
    pending.run(async () => {
      await action();
      await queryClient.invalidateQueries({ queryKey: ["discussion", repo.type, repo.id, discussion.num] });
      await queryClient.invalidateQueries({ queryKey: ["discussions", repo.type, repo.id] });
      await queryClient.invalidateQueries({ queryKey: ["tree", repo.type, repo.id] });
      await queryClient.invalidateQueries({ queryKey: ["commits", repo.type, repo.id] });
    });
  // Each action posts the comment typed so far (if any) with it, and empties the box once it is done.
  const post = (action: "comment" | "merge" | "status", json: Record<string, unknown>) =>
    run(async () => {
      await hubSend("POST", `${base}/${action}`, viewer.csrfToken, { json });
      setComment("");
    });
  const withComment = () => (comment.trim() ? { comment } : {});
  const isOpen = discussion.status === "open" || discussion.status === "draft";
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-4"
    >
      <h3 id={`${id}-heading`} className="sr-only">
        Reply
      </h3>
      <LabelledText label="Comment" rows={4} value={comment} onValue={setComment} />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          disabled={busy || !comment.trim()}
          onClick={() => post("comment", { comment })}
          className="rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-ink disabled:opacity-60"
        >
          Comment
        </button>
        {discussion.isPullRequest && discussion.status === "open" && writer ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => post("merge", withComment())}
            className="rounded-md border border-ok px-4 py-2 text-sm font-medium text-ok disabled:opacity-60"
          >
            Merge pull request
          </button>
        ) : null}
        {mayClose && discussion.status !== "merged" ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => post("status", { status: isOpen ? "closed" : "open", ...withComment() })}
            className="rounded-md border border-line px-4 py-2 text-sm font-medium disabled:opacity-60"
          >
            {isOpen ? `Close ${discussion.isPullRequest ? "pull request" : "discussion"}` : "Reopen"}
          </button>
        ) : null}
      </div>
      <ErrorAlert message={error} />
    </section>
  );
}
