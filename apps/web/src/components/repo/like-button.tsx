import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { type LikeState, likeQuery, setLiked } from "../../lib/api/likes.js";
import { viewerQuery } from "../../lib/api/session.js";
import { formatCount } from "../../lib/format.js";
import type { RepoRef } from "../../lib/repo-ref.js";

/**
 * The repository's likes by this hub's users, as a button: pressed when the viewer likes it. A visitor who is
 * not signed in sees the count and a link to sign in. `initial`: the count the page already has.
 */
export function LikeButton({ repo, initial }: { repo: RepoRef; initial?: number }) {
  const client = useQueryClient();
  const viewer = useQuery(viewerQuery()).data;
  const state = useQuery(likeQuery(repo));
  const likes = state.data?.likes ?? initial ?? 0;
  const liked = state.data?.liked ?? false;
  const toggle = useMutation({
    mutationFn: () => setLiked(repo, !liked, viewer?.csrfToken ?? ""),
    onSuccess: (next: LikeState) => client.setQueryData(likeQuery(repo).queryKey, next),
  });
  const label = `${formatCount(likes)} ${likes === 1 ? "like" : "likes"}`;
  if (!viewer) {
    return (
      <div className="flex items-center gap-1 text-muted">
        <dt>Likes</dt>
        <dd className="font-medium text-ink" data-testid="likes">
          {formatCount(likes)}
        </dd>
        <dd>
          <Link to="/login" className="text-xs text-accent underline">
            Sign in to like
          </Link>
        </dd>
      </div>
    );
  }
  return (
    <div className="flex items-center gap-1">
      <dt className="sr-only">Likes</dt>
      <dd>
        <button
          type="button"
          data-testid="like-button"
          aria-pressed={liked}
          disabled={toggle.isPending || state.isPending}
          onClick={() => toggle.mutate()}
          className={`inline-flex min-h-8 items-center gap-1.5 rounded-full border px-3 py-0.5 text-sm font-medium ${
            liked ? "border-accent bg-accent-soft text-accent" : "border-line text-ink hover:bg-raised"
          }`}
        >
          <span aria-hidden="true">{liked ? "♥" : "♡"}</span>
          <span>{liked ? "Liked" : "Like"}</span>
          <span data-testid="likes" className="text-muted">
            {formatCount(likes)}
          </span>
          <span className="sr-only">({label})</span>
        </button>
        {toggle.error ? (
          <span role="alert" className="ml-2 text-xs text-danger">
            {toggle.error.message}
          </span>
        ) : null}
      </dd>
    </div>
  );
}
