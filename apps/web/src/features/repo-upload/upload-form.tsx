import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { ErrorAlert } from "../../components/ui/query-state.js";
import { canWrite, viewerQuery } from "../../lib/api/session.js";
import { formatBytes } from "../../lib/format.js";
import { filesUrls, type RepoRef } from "../../lib/repo-ref.js";
import { afterCommit } from "./after-commit.js";
import { type CommitChoice, CommitFields } from "./commit-fields.js";
import { commitFiles, type FileProgress, type PendingFile } from "./commit-files.js";
import { filesFromDrop, filesFromInput } from "./dropped-files.js";
import { UploadCancelledError } from "./sha256.js";
import { SignInTo } from "./sign-in-to.js";

type Status =
  | { kind: "idle" }
  | { kind: "running" }
  | { kind: "failed"; message: string }
  | { kind: "cancelled" };

/** Upload files and folders (drag and drop or pickers) into a folder of a repository, as one commit. */
export function UploadForm({ repo, revision, dir }: { repo: RepoRef; revision: string; dir: string }) {
  const viewer = useQuery(viewerQuery());
  const navigate = useNavigate();
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [progress, setProgress] = useState<Record<string, FileProgress>>({});
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const [dragging, setDragging] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const writer = canWrite(viewer.data, repo.id);

  if (viewer.isPending) return <p className="text-muted">Loading…</p>;
  if (!viewer.data) return <SignInTo what={"upload files"} />;

  const add = (more: PendingFile[]) => {
    const prefix = dir ? `${dir}/` : "";
    setFiles((current) => {
      const byPath = new Map(current.map((file) => [file.path, file]));
      for (const file of more)
        byPath.set(`${prefix}${file.path}`, { ...file, path: `${prefix}${file.path}` });
      return [...byPath.values()];
    });
  };

  const submit = async (choice: CommitChoice) => {
    const controller = new AbortController();
    abort.current = controller;
    setStatus({ kind: "running" });
    try {
      const result = await commitFiles(
        { repo, revision, files, ...choice, csrfToken: viewer.data?.csrfToken ?? "" },
        (path, next) => setProgress((current) => ({ ...current, [path]: next })),
        controller.signal,
      );
      await afterCommit(repo, result, filesUrls.tree(repo, revision, dir), navigate);
    } catch (error) {
      if (error instanceof UploadCancelledError || controller.signal.aborted)
        setStatus({ kind: "cancelled" });
      else setStatus({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      abort.current = null;
    }
  };

  const totalBytes = files.reduce((sum, file) => sum + file.file.size, 0);
  const running = status.kind === "running";
  return (
    <section aria-labelledby="upload-heading" className="flex flex-col gap-4">
      <h2 id="upload-heading" className="text-lg font-semibold">
        Upload files{dir ? ` to ${dir}/` : ""}
      </h2>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop zone adds drag and drop; the pickers inside are the keyboard path. */}
      <div
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={async (event) => {
          event.preventDefault();
          setDragging(false);
          if (!running) add(await filesFromDrop(event.dataTransfer.items));
        }}
        className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-8 text-center ${dragging ? "border-accent bg-accent-soft" : "border-line"}`}
      >
        <p>Drag files or folders here, or</p>
        <div className="flex flex-wrap justify-center gap-2">
          <FilePicker label="Choose files" disabled={running} onPick={add} />
          <FilePicker label="Choose a folder" folder disabled={running} onPick={add} />
        </div>
      </div>
      {files.length > 0 ? (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-muted">
            {files.length} file{files.length === 1 ? "" : "s"}, {formatBytes(totalBytes)}
          </p>
          <ul className="max-h-80 overflow-auto rounded-lg border border-line" aria-label="Files to upload">
            {files.map(({ path, file }) => {
              const state = progress[path];
              return (
                <li
                  key={path}
                  className="flex flex-wrap items-center gap-2 border-b border-line px-3 py-1.5 text-sm last:border-b-0"
                >
                  <span className="min-w-0 flex-1 font-mono break-all">{path}</span>
                  <span className="text-muted tabular-nums">{formatBytes(file.size)}</span>
                  {state ? (
                    <>
                      <progress
                        max={file.size || 1}
                        value={state.phase === "done" ? file.size || 1 : state.bytes}
                        aria-label={`${state.phase === "hashing" ? "Hashing" : "Uploading"} ${path}`}
                        className="h-2 w-24"
                      />
                      <span className="w-16 text-xs text-muted">{state.phase}</span>
                    </>
                  ) : running ? null : (
                    <button
                      type="button"
                      className="text-xs text-danger underline"
                      onClick={() => setFiles((current) => current.filter((entry) => entry.path !== path))}
                    >
                      Remove<span className="sr-only"> {path}</span>
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      <CommitFields
        canCommitDirectly={writer}
        revision={revision}
        defaultTitle={`Upload ${files.length === 1 ? files[0]?.path.split("/").pop() : `${files.length} files`}`}
        disabled={running || files.length === 0}
        submitLabel={running ? "Uploading…" : "Commit changes"}
        onSubmit={submit}
      />
      {running ? (
        <button
          type="button"
          onClick={() => abort.current?.abort()}
          className="self-start rounded-md border border-danger px-3 py-1.5 text-sm font-medium text-danger"
        >
          Cancel upload
        </button>
      ) : null}
      {status.kind === "failed" ? (
        <ErrorAlert message={status.message} />
      ) : status.kind === "cancelled" ? (
        <p role="status" className="text-muted">
          Upload cancelled: nothing was committed.
        </p>
      ) : null}
    </section>
  );
}

function FilePicker({
  label,
  folder = false,
  disabled,
  onPick,
}: {
  label: string;
  folder?: boolean;
  disabled: boolean;
  onPick: (files: PendingFile[]) => void;
}) {
  return (
    <label className="inline-flex h-9 cursor-pointer items-center rounded-md border border-line bg-surface px-3 text-sm font-medium focus-within:outline-2 focus-within:outline-accent hover:border-accent">
      {label}
      <input
        type="file"
        multiple
        disabled={disabled}
        className="sr-only"
        data-testid={folder ? "folder-input" : "files-input"}
        {...(folder ? { webkitdirectory: "" } : {})}
        onChange={(event) => {
          if (event.target.files) onPick(filesFromInput(event.target.files));
          event.target.value = "";
        }}
      />
    </label>
  );
}
