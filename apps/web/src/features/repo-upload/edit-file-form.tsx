import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link, useNavigate } from "react-router";
import { LabelledText } from "../../components/ui/labelled-text.js";
import { ErrorAlert } from "../../components/ui/query-state.js";
import { hubError, hubSend } from "../../lib/api/hub-fetch.js";
import { canWrite, viewerQuery } from "../../lib/api/session.js";
import { filesUrls, type RepoRef, repoApiUrl, resolveUrl } from "../../lib/repo-ref.js";
import { usePendingAction } from "../../lib/use-pending-action.js";
import { CardFields, textFileDiff } from "../card-editor/index.js";
import { DiffView } from "../repo-files/diff-view.js";
import { afterCommit } from "./after-commit.js";
import { type CommitChoice, CommitFields } from "./commit-fields.js";
import { commitFiles } from "./commit-files.js";
import { SignInTo } from "./sign-in-to.js";

/**
 * Create a text file in a folder (`existing` undefined) or edit one, committed with a title and
 * description, directly or as a pull request. An edit is committed only after its diff was shown, against
 * the commit it was loaded from (a branch that moved since refuses it); the README at the root also gets its
 * front matter's common fields as a form (card-editor).
 */
export function EditFileForm({
  repo,
  revision,
  dir = "",
  existing,
  initialName = "",
}: {
  repo: RepoRef;
  revision: string;
  dir?: string;
  existing?: string;
  initialName?: string;
}) {
  const id = useId();
  const viewer = useQuery(viewerQuery());
  const navigate = useNavigate();
  const [name, setName] = useState(initialName);
  const [edited, setEdited] = useState<string | undefined>(undefined);
  /** A new file's path that exists already: the form refuses to replace it and offers its editor. */
  const [clash, setClash] = useState<string | null>(null);
  /**
   * The content whose diff is on screen. An edit is committed only when what would be committed is what was
   * shown: the first press of the button shows the diff, the next one commits it.
   */
  const [reviewed, setReviewed] = useState<string | undefined>(undefined);
  const { busy: running, error, run } = usePendingAction();
  const original = useQuery({
    queryKey: ["file-text-edit", repo.type, repo.id, revision, existing],
    enabled: existing !== undefined,
    queryFn: async ({ signal }) => {
      const url = resolveUrl(repo, revision, existing ?? "");
      const response = await fetch(url, { signal, cache: "no-store" });
      if (!response.ok) throw await hubError(response, url);
      return { text: await response.text(), commit: response.headers.get("X-Repo-Commit") ?? undefined };
    },
    // The text and commit the edit starts from: read once per visit of the editor, never refreshed under it
    // (a refresh would move the commit the change is checked against, and the diff's "before").
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const content = edited ?? original.data?.text ?? "";
  const isCard = existing === "README.md" || (!existing && !dir && name.trim() === "README.md");
  const edit = (text: string) => setEdited(text);

  if (viewer.isPending || (existing !== undefined && original.isPending))
    return <p className="text-muted">Loading…</p>;
  if (!viewer.data) return <SignInTo what={existing ? "edit files" : "create files"} />;
  if (original.isError) return <ErrorAlert message={original.error.message} />;
  const path = existing ?? `${dir ? `${dir}/` : ""}${name.trim()}`;

  const submit = (choice: CommitChoice) =>
    run(async () => {
      if (!existing && !name.trim()) throw new Error("Name the file first.");
      setClash(null);
      if (existing !== undefined && reviewed !== content) {
        setReviewed(content);
        return;
      }
      if (existing !== undefined && content === original.data?.text) {
        throw new Error("Nothing changed: the file is as it was.");
      }
      if (!existing) {
        const found = await hubSend<unknown[]>(
          "POST",
          repoApiUrl(repo, `paths-info/${encodeURIComponent(revision)}`),
          viewer.data?.csrfToken ?? "",
          { json: { paths: [path] } },
        );
        if (found.length > 0) {
          setClash(path);
          return;
        }
      }
      const result = await commitFiles(
        {
          repo,
          revision,
          ...choice,
          files: [{ path, file: new Blob([content], { type: "text/plain" }) }],
          parentCommit: original.data?.commit,
          csrfToken: viewer.data?.csrfToken ?? "",
        },
        () => {},
        new AbortController().signal,
      );
      await afterCommit(repo, result, filesUrls.blob(repo, revision, path), navigate);
    });

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold break-all">
        {existing ? `Edit ${existing}` : `New file${dir ? ` in ${dir}/` : ""}`}
      </h2>
      {existing ? null : (
        <LabelledText label="File name" value={name} onValue={setName} placeholder="README.md" mono />
      )}
      {isCard ? <CardFields kind={repo.type} text={content} onText={edit} /> : null}
      <LabelledText label="Content" rows={18} value={content} onValue={edit} spellCheck={false} mono />
      {existing !== undefined && reviewed !== undefined ? (
        <ReviewedChanges
          path={existing}
          before={original.data?.text ?? ""}
          after={reviewed}
          current={reviewed === content}
        />
      ) : null}
      <CommitFields
        canCommitDirectly={canWrite(viewer.data, repo.id)}
        revision={revision}
        defaultTitle={existing ? `Update ${existing}` : `Create ${path || "a file"}`}
        disabled={running}
        submitLabel={running ? "Committing…" : "Commit changes"}
        onSubmit={submit}
      />
      <ErrorAlert message={error} />
      {clash ? (
        <p role="alert" className="text-danger">
          {clash} already exists on {revision}: committing would replace it.{" "}
          <Link to={filesUrls.edit(repo, revision, clash)} className="underline">
            Edit {clash}
          </Link>{" "}
          instead, or choose another name.
        </p>
      ) : null}
    </section>
  );
}

/**
 * The change an edit makes, shown before it can be committed: replacing a file is never blind. `current`:
 * the text is still what the diff shows (else the next press shows the new diff first).
 */
function ReviewedChanges({
  path,
  before,
  after,
  current,
}: {
  path: string;
  before: string;
  after: string;
  current: boolean;
}) {
  const diff = textFileDiff(path, before, after);
  return (
    <section aria-label="Changes to commit" className="flex flex-col gap-2">
      <h3 className="text-base font-semibold">Changes to {path}</h3>
      {diff ? <DiffView files={[diff]} /> : null}
      <p role="status" className="text-sm text-muted">
        {!diff
          ? "No changes: the file is as it was."
          : current
            ? "This is what the commit changes. Press the button again to commit it."
            : "The text changed since this diff: the next press shows the new one."}
      </p>
    </section>
  );
}
