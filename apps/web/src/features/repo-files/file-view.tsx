import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { CodeBlock } from "../../components/ui/code-block.js";
import { CopyButton } from "../../components/ui/copy-button.js";
import { ErrorAlert, QueryState } from "../../components/ui/query-state.js";
import { hubError } from "../../lib/api/hub-fetch.js";
import { MAX_TEXT_BYTES, pathInfoQuery, type TreeEntry } from "../../lib/api/repo-files.js";
import { canWrite, viewerQuery } from "../../lib/api/session.js";
import { formatAgo, formatBytes } from "../../lib/format.js";
import { filesUrls, type RepoRef, resolveUrl } from "../../lib/repo-ref.js";
import { FileScan, useServable } from "../repo-scan/index.js";
import { Breadcrumbs } from "./breadcrumbs.js";
import { isImagePath, languageOf, looksLikeText, MAX_HIGHLIGHT_BYTES } from "./file-language.js";
import { RevisionSwitcher } from "./revision-switcher.js";

const buttonClass =
  "inline-flex h-8 items-center rounded-md border border-line px-2.5 text-sm font-medium hover:border-accent";

/** One file at a revision: its facts (size, LFS sha256, last commit), actions, and its content. */
export function FileView({ repo, revision, path }: { repo: RepoRef; revision: string; path: string }) {
  const info = useQuery(pathInfoQuery(repo, revision, path));
  const viewer = useQuery(viewerQuery());
  const rawUrl = resolveUrl(repo, revision, path);
  const absoluteUrl = new URL(rawUrl, window.location.origin).href;
  return (
    <section aria-labelledby="file-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <RevisionSwitcher repo={repo} revision={revision} urlFor={(rev) => filesUrls.blob(repo, rev, path)} />
        <Breadcrumbs repo={repo} revision={revision} path={path} />
      </div>
      <h2 id="file-heading" className="sr-only">
        {path}
      </h2>
      <QueryState query={info} loading={`Loading ${path}…`}>
        {(data) =>
          data === null || data.type !== "file" ? (
            <p role="alert" className="text-danger">
              There is no file {path} at {revision}.
            </p>
          ) : (
            <>
              <FileFacts repo={repo} entry={data} />
              <FileScan repo={repo} revision={revision} path={path} security={data.securityFileStatus} />
              <div className="flex flex-wrap items-center gap-2">
                <a href={rawUrl} className={buttonClass}>
                  Raw
                </a>
                <a href={resolveUrl(repo, revision, path, true)} className={buttonClass} download>
                  Download
                </a>
                <CopyButton text={absoluteUrl} what="link" label="Copy link" />
                <Link to={filesUrls.commits(repo, revision, path)} className={buttonClass}>
                  History
                </Link>
                {viewer.data && !data.lfs && data.size <= MAX_TEXT_BYTES ? (
                  <Link to={filesUrls.edit(repo, revision, path)} className={buttonClass}>
                    {canWrite(viewer.data, repo.id) ? "Edit" : "Propose a change"}
                  </Link>
                ) : null}
              </div>
              <FileContent repo={repo} revision={revision} entry={data} />
            </>
          )
        }
      </QueryState>
    </section>
  );
}

function FileFacts({ repo, entry }: { repo: RepoRef; entry: TreeEntry }) {
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 rounded-lg border border-line bg-surface p-3 text-sm">
      <dt className="text-muted">Size</dt>
      <dd data-testid="file-size">
        {formatBytes(entry.size)} ({entry.size.toLocaleString("en")} bytes)
      </dd>
      {entry.lfs ? (
        <>
          <dt className="text-muted">Stored with</dt>
          <dd>Git LFS</dd>
          <dt className="text-muted">SHA256</dt>
          <dd className="font-mono text-xs break-all" data-testid="lfs-sha256">
            {entry.lfs.oid}
          </dd>
        </>
      ) : (
        <>
          <dt className="text-muted">Git blob</dt>
          <dd className="font-mono text-xs break-all">{entry.oid}</dd>
        </>
      )}
      {entry.lastCommit ? (
        <>
          <dt className="text-muted">Last commit</dt>
          <dd className="min-w-0">
            <Link to={filesUrls.commit(repo, entry.lastCommit.id)} className="text-accent underline">
              {entry.lastCommit.title}
            </Link>{" "}
            <time dateTime={entry.lastCommit.date} className="text-muted">
              {formatAgo(entry.lastCommit.date)}
            </time>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** Text up to 1 MB shown (coloured up to 200 kB), images previewed, anything else offered for download. */
function FileContent({ repo, revision, entry }: { repo: RepoRef; revision: string; entry: TreeEntry }) {
  const url = resolveUrl(repo, revision, entry.path);
  const isImage = isImagePath(entry.path);
  const servable = useServable(repo, revision, entry.path, entry.securityFileStatus);
  const text = useQuery({
    queryKey: ["file-text", repo.type, repo.id, revision, entry.path, entry.oid],
    enabled: servable === "yes" && !isImage && entry.size <= MAX_TEXT_BYTES,
    queryFn: async ({ signal }) => {
      const response = await fetch(url, { signal });
      if (!response.ok) throw await hubError(response, url);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return looksLikeText(bytes) ? new TextDecoder().decode(bytes) : null;
    },
    staleTime: 60_000,
  });
  if (servable === "no") {
    return (
      <p className="rounded-lg border border-dashed border-line p-6 text-center text-muted">
        Content not shown: this hub refuses to serve this file (see the security scan above).
      </p>
    );
  }
  if (servable === "waiting") return <p className="text-muted">Waiting for the security scan…</p>;
  if (isImage) {
    return (
      <div className="rounded-lg border border-line bg-raised p-3">
        <img src={url} alt={`Preview of ${entry.path}`} className="mx-auto max-h-[70vh] max-w-full" />
      </div>
    );
  }
  if (entry.size > MAX_TEXT_BYTES) {
    return (
      <p className="rounded-lg border border-dashed border-line p-6 text-center text-muted">
        This file is {formatBytes(entry.size)}: too large to show here. Use Download or Raw.
      </p>
    );
  }
  if (text.isPending) return <p className="text-muted">Loading content…</p>;
  if (text.isError) return <ErrorAlert message={text.error.message} />;
  if (text.data === null) {
    return (
      <p className="rounded-lg border border-dashed border-line p-6 text-center text-muted">
        Binary file not shown.
      </p>
    );
  }
  return (
    <CodeBlock
      code={text.data}
      label={`Content of ${entry.path}`}
      language={text.data.length <= MAX_HIGHLIGHT_BYTES ? languageOf(entry.path) : "plain"}
      testId="file-content"
    />
  );
}
