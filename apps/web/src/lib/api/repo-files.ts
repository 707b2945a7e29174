import type { ModelData } from "@modelhub/tasks";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { queryClient } from "../query-client.js";
import { filePath, type RepoRef, repoApiUrl } from "../repo-ref.js";
import type { DemoCopyInfo } from "./demo-copy.js";
import { hubGet, hubSend } from "./hub-fetch.js";
import { nextLinkFrom } from "./link-header.js";
import type { RepoMirrorInfo } from "./repos.js";
import { isScanPending, type SecurityFileStatus } from "./scan.js";
import { viewerQuery } from "./session.js";

/** One entry of `GET /api/{type}s/{id}/tree/{rev}/{path}?expand=true` (the public hub's shape). */
export interface TreeEntry {
  type: "file" | "directory";
  oid: string;
  size: number;
  path: string;
  lfs?: { oid: string; size: number; pointerSize: number };
  lastCommit?: { id: string; title: string; date: string };
  /** The file's scan (with `expand`): pending while it runs. */
  securityFileStatus?: SecurityFileStatus;
}

export interface CommitSummary {
  id: string;
  title: string;
  message: string;
  authors: Array<{ user: string }>;
  date: string;
}

/**
 * The repository's own record with file sizes (`blobs=true`): what the files say. The model sidebar and the
 * local-apps quantization pick share it (one request, one cache entry).
 */
export const repoFilesInfoQuery = (repo: RepoRef) => ({
  queryKey: ["repo-info-blobs", repo.type, repo.id],
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    (
      await hubGet<
        ModelData & {
          private?: boolean;
          gated?: false | string;
          mirror?: RepoMirrorInfo;
          demoCopy?: DemoCopyInfo;
        }
      >(`${repoApiUrl(repo)}?blobs=true`, signal)
    ).data,
  staleTime: 30_000,
});

export interface RepoRefs {
  branches: Array<{ name: string; ref: string; targetCommit: string }>;
  tags: Array<{ name: string; ref: string; targetCommit: string }>;
}

/** Entries per page of the tree: the hub walks history once per page for the last commits. */
export const TREE_PAGE_SIZE = 100;
export const COMMITS_PAGE_SIZE = 50;

/**
 * A directory's entries, a page at a time (the hub's `Link: rel="next"`). Without their last commits: those
 * cost the hub a walk through history, so the page asks for them after the names are on screen.
 */
export const treeQuery = (repo: RepoRef, revision: string, dir: string) =>
  infiniteQueryOptions({
    queryKey: ["tree", repo.type, repo.id, revision, dir],
    initialPageParam: "",
    queryFn: async ({ pageParam, signal }) => {
      const base = repoApiUrl(repo, `tree/${encodeURIComponent(revision)}${dir ? `/${filePath(dir)}` : ""}`);
      const url = pageParam || `${base}?limit=${TREE_PAGE_SIZE}`;
      const { data, headers } = await hubGet<TreeEntry[]>(url, signal);
      const next = nextLinkFrom(headers.get("link"));
      // The hub answers absolute URLs on its public origin; the page calls its own origin.
      return { entries: data, next: next ? relativeUrl(next) : undefined };
    },
    getNextPageParam: (page) => page.next,
    staleTime: 30_000,
  });

function relativeUrl(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.search}`;
}

export const refsQuery = (repo: RepoRef) =>
  queryOptions({
    queryKey: ["refs", repo.type, repo.id],
    queryFn: async ({ signal }) => (await hubGet<RepoRefs>(repoApiUrl(repo, "refs"), signal)).data,
    staleTime: 30_000,
  });

/** The history page a URL asks for (`?p=`, from 0). */
export function historyPageParam(params: URLSearchParams): number {
  return Math.max(0, Number.parseInt(params.get("p") ?? "0", 10) || 0);
}

/**
 * One page of first-parent history at a revision, or of the commits that changed `path` (the hub's
 * `commits/{rev}/{path}`); `hasNext` from the hub's `Link` header.
 */
export const commitsQuery = (repo: RepoRef, revision: string, page: number, path = "") =>
  queryOptions({
    queryKey: ["commits", repo.type, repo.id, revision, path, page],
    queryFn: async ({ signal }) => {
      const url = repoApiUrl(
        repo,
        `commits/${encodeURIComponent(revision)}${path ? `/${filePath(path)}` : ""}?p=${page}&limit=${COMMITS_PAGE_SIZE}`,
      );
      const { data, headers } = await hubGet<CommitSummary[]>(url, signal);
      return { commits: data, hasNext: Boolean(nextLinkFrom(headers.get("link"))) };
    },
    staleTime: 30_000,
  });

/** `paths-info` of some paths, each with its last commit (`expand`). */
async function pathsInfo(repo: RepoRef, revision: string, paths: string[], signal: AbortSignal) {
  // A POST: a signed-in viewer's session needs its CSRF token even for this read.
  const viewer = await queryClient.ensureQueryData(viewerQuery());
  const url = repoApiUrl(repo, `paths-info/${encodeURIComponent(revision)}`);
  return hubSend<TreeEntry[]>(
    "POST",
    url,
    viewer?.csrfToken ?? "",
    { json: { paths, expand: true } },
    signal,
  );
}

/** The entry at a path (file or folder) with its last commit, or null when nothing is there. */
export const pathInfoQuery = (repo: RepoRef, revision: string, path: string) =>
  queryOptions({
    queryKey: ["path-info", repo.type, repo.id, revision, path],
    queryFn: async ({ signal }): Promise<TreeEntry | null> =>
      (await pathsInfo(repo, revision, [path], signal))[0] ?? null,
    staleTime: 30_000,
    refetchInterval: (query) => (query.state.data && hasPendingScan([query.state.data]) ? 3_000 : false),
  });

/** What `expand` adds to each of a page's entries: its last commit and its scan. */
export type ExpandedFacts = Pick<TreeEntry, "lastCommit" | "securityFileStatus">;

/** Whether any entry's scan is still running: the page asks again until none is. */
export function hasPendingScan(facts: Iterable<ExpandedFacts>): boolean {
  for (const fact of facts) if (isScanPending(fact.securityFileStatus)) return true;
  return false;
}

/** The last commit and scan of each of a page's paths (one `paths-info` call with `expand`). */
export const lastCommitsQuery = (repo: RepoRef, revision: string, paths: string[]) =>
  queryOptions({
    queryKey: ["last-commits", repo.type, repo.id, revision, paths],
    queryFn: async ({ signal }) => {
      const entries = await pathsInfo(repo, revision, paths, signal);
      return new Map<string, ExpandedFacts>(
        entries.map((entry) => [
          entry.path,
          { lastCommit: entry.lastCommit, securityFileStatus: entry.securityFileStatus },
        ]),
      );
    },
    staleTime: 30_000,
    // A scan still running: ask again every 3 s until every scan of the page is done.
    refetchInterval: (query) =>
      query.state.data && hasPendingScan(query.state.data.values()) ? 3_000 : false,
  });

/** Files shown as text up to this size; larger ones offer the download only. */
export const MAX_TEXT_BYTES = 1024 * 1024;
