import { listsPrivateId, READ_PRIVATE_REPO, type Row, SEES_PRIVATE } from "./callers.js";
import { PRIVATE_REPO } from "./fixture.js";

const LIKE = `/api/models/${PRIVATE_REPO}/like`;

/** Whether a user's likes (`[{createdAt, repo: {name, type}}]`) name the private repository. */
function listsLikedPrivateRepo(response: Response, body: unknown): string {
  if (response.status !== 200) return String(response.status);
  return (body as Array<{ repo: { name: string } }>).some((like) => like.repo.name === PRIVATE_REPO)
    ? "listed"
    : "hidden";
}

/**
 * Likes and this hub's own counters (catalogue/engagement-service.ts): liking needs what reading needs (a
 * hidden repository is a 404, as a missing one), and no list of likes or trending repositories names a
 * private repository to someone who may not see it. The rows run in order: every reader likes the private
 * repository first, the lists are read, and each takes the like back last.
 */
export const ENGAGEMENT_ROWS: Row[] = [
  {
    route: "POST /api/{type}s/{id}/like",
    name: "like a private repository",
    method: "POST",
    path: LIKE,
    writes: true,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/like",
    name: "a private repository's likes and one's own",
    method: "GET",
    path: LIKE,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/likers",
    name: "who likes a private repository",
    method: "GET",
    path: `/api/models/${PRIVATE_REPO}/likers`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/users/:name/likes",
    name: "what rae likes, a private repository among it",
    method: "GET",
    path: "/api/users/rae/likes",
    outcome: listsLikedPrivateRepo,
    expected: SEES_PRIVATE,
  },
  {
    route: "GET /api/trending",
    name: "trending repositories, a liked private one among them",
    method: "GET",
    path: "/api/trending?limit=100",
    outcome: listsPrivateId(PRIVATE_REPO),
    expected: SEES_PRIVATE,
  },
  {
    route: "DELETE /api/{type}s/{id}/like",
    name: "take back a like of a private repository",
    method: "DELETE",
    path: LIKE,
    writes: true,
    expected: READ_PRIVATE_REPO,
  },
];
