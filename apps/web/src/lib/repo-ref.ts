/** A repository as the pages address it: its kind and its `owner/name` id. */
export interface RepoRef {
  type: "model" | "dataset" | "space";
  id: string;
}

/** `owner/name` as a URL path, each part encoded, the slash kept. */
export function idPath(id: string): string {
  return id.split("/").map(encodeURIComponent).join("/");
}

/** A path inside a repository as a URL path (each segment encoded, slashes kept). */
export function filePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** The repository's page, `/{id}` for models, `/datasets/{id}` and `/spaces/{id}` otherwise. */
export function repoPageUrl(repo: RepoRef, section?: string): string {
  const prefix = repo.type === "model" ? "" : `/${repo.type}s`;
  return `${prefix}/${idPath(repo.id)}${section ? `/${section}` : ""}`;
}

/** The repository's API base, `/api/{type}s/{id}`. */
export function repoApiUrl(repo: RepoRef, rest?: string): string {
  return `/api/${repo.type}s/${idPath(repo.id)}${rest ? `/${rest}` : ""}`;
}

/** Where a file's bytes are served (`/resolve` follows LFS; `?download=true` asks for an attachment). */
export function resolveUrl(repo: RepoRef, revision: string, path: string, download = false): string {
  const prefix = repo.type === "model" ? "" : `/${repo.type}s`;
  return `${prefix}/${idPath(repo.id)}/resolve/${encodeURIComponent(revision)}/${filePath(path)}${download ? "?download=true" : ""}`;
}

/** Page URLs of the files section: tree and blob at a revision, commits, one commit. */
export const filesUrls = {
  tree: (repo: RepoRef, revision: string, path = "") =>
    repoPageUrl(repo, `tree/${encodeURIComponent(revision)}${path ? `/${filePath(path)}` : ""}`),
  blob: (repo: RepoRef, revision: string, path: string) =>
    repoPageUrl(repo, `blob/${encodeURIComponent(revision)}/${filePath(path)}`),
  commits: (repo: RepoRef, revision: string, path = "") =>
    repoPageUrl(repo, `commits/${encodeURIComponent(revision)}${path ? `/${filePath(path)}` : ""}`),
  commit: (repo: RepoRef, oid: string) => repoPageUrl(repo, `commit/${oid}`),
  upload: (repo: RepoRef, revision: string, path = "") =>
    repoPageUrl(repo, `upload/${encodeURIComponent(revision)}${path ? `/${filePath(path)}` : ""}`),
  newFile: (repo: RepoRef, revision: string, path = "") =>
    repoPageUrl(repo, `new/${encodeURIComponent(revision)}${path ? `/${filePath(path)}` : ""}`),
  edit: (repo: RepoRef, revision: string, path: string) =>
    repoPageUrl(repo, `edit/${encodeURIComponent(revision)}/${filePath(path)}`),
};
