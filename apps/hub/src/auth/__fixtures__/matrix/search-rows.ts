import { type Row, SEES_PRIVATE } from "./callers.js";
import { PRIVATE_REPO } from "./fixture.js";

/** Whether a search answer names acme's private repository anywhere (its hits, suggestions or passages). */
const mentionsPrivateRepo = (response: Response, body: unknown): string =>
  response.status !== 200 ? String(response.status) : JSON.stringify(body).includes(PRIVATE_REPO) ? "listed" : "hidden";

/** Search (search/search-routes.ts): a private repository only for those who may see it, by id or by typo. */
export const SEARCH_ROWS: Row[] = [
  {
    route: "GET /api/quicksearch",
    name: "quicksearch for acme's private repositories, by a misspelt id",
    method: "GET",
    path: "/api/quicksearch?q=acme/privte-repo",
    outcome: mentionsPrivateRepo,
    expected: SEES_PRIVATE,
  },
  {
    route: "GET /api/search/full-text",
    name: "full-text search for acme's private repositories",
    method: "GET",
    path: "/api/search/full-text?q=private%20repo",
    outcome: mentionsPrivateRepo,
    expected: SEES_PRIVATE,
  },
];
