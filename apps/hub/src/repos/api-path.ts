import { decodeSegment, TYPE_SEGMENTS } from "./repo-target.js";
import type { RepoType } from "./repos-table.js";

export const REPO_API_ACTIONS = [
  "revision",
  "tree",
  "paths-info",
  "commits",
  "refs",
  "preupload",
  "commit",
  "settings",
  "branch",
  "tag",
  "xet-write-token",
  "xet-read-token",
  "ask-access",
  "user-access-request",
  "discussions",
  "compare",
] as const;
export type RepoApiAction = (typeof REPO_API_ACTIONS)[number];

const API_PATH = new RegExp(
  `^/api/(models|datasets|spaces)/([^/]+(?:/[^/]+)??)(?:/(${REPO_API_ACTIONS.join("|")})(?:/(.*))?)?$`,
);

export interface RepoApiPath {
  type: RepoType;
  id: string;
  /** Undefined for the repository itself (`/api/models/{id}`). */
  action?: RepoApiAction;
  /** Decoded segments after the action: a revision, then a path inside the repository. */
  rest: string[];
}

/**
 * Splits `/api/{type}s/{id}[/{action}[/...]]` (id of one or two segments; segments percent-decoded one by
 * one so that `refs%2Fpr%2F1` stays one revision). Undefined for paths that are not a repository API call.
 */
export function parseRepoApiPath(rawPath: string): RepoApiPath | undefined {
  const match = API_PATH.exec(rawPath);
  if (!match) return undefined;
  const [, typeSegment, rawId, action, rest] = match;
  return {
    type: TYPE_SEGMENTS[typeSegment!]!,
    id: decodeSegment(rawId!),
    action: action as RepoApiAction | undefined,
    rest: rest === undefined || rest === "" ? [] : rest.split("/").map(decodeSegment),
  };
}
