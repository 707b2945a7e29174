/**
 * The repositories' records as the domain speaks of them: what services hand to routes and routes answer
 * with. repos-table.ts stores them; nothing here knows SQL.
 */
export const REPO_TYPES = ["model", "dataset", "space"] as const;
export type RepoType = (typeof REPO_TYPES)[number];
export type Gated = false | "auto" | "manual";

export interface RepoRecord {
  /** Internal row id (never shown). */
  key: number;
  type: RepoType;
  /** `owner/name` (or a legacy single-segment id such as `gpt2`). */
  id: string;
  owner: string;
  private: boolean;
  gated: Gated;
  createdAt: string;
  lastModified: string;
  /** The upstream hub's base URL when this is a read-only mirror of an upstream repository (mirror/). */
  mirrorOf?: string;
}

export interface CommitRecord {
  oid: string;
  tree: string;
  parents: string[];
  author: string;
  title: string;
  message: string;
  createdAt: string;
}

/** A file of a commit: its path, git blob id, and where its bytes are (sha256 in the blob store). */
export interface FileRecord {
  path: string;
  blobOid: string;
  sha256: string;
  size: number;
  lfs: boolean;
}

/** The lock a transaction holds while it moves a repository's refs or numbers its discussions. */
export function repoLock(repoKey: number): string {
  return `repo:${repoKey}`;
}
