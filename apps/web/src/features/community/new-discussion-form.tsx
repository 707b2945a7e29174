import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { LabelledText } from "../../components/ui/labelled-text.js";
import { ErrorAlert } from "../../components/ui/query-state.js";
import { hubSend } from "../../lib/api/hub-fetch.js";
import { queryClient } from "../../lib/query-client.js";
import { type RepoRef, repoApiUrl, repoPageUrl } from "../../lib/repo-ref.js";
import { usePendingAction } from "../../lib/use-pending-action.js";

/** Start a discussion (title + first comment). Pull requests start from "Add file" as a PR. */
export function NewDiscussionForm({ repo, csrfToken }: { repo: RepoRef; csrfToken: string }) {
  const id = useId();
  const navigate = useNavigate();
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const { busy, error, run } = usePendingAction();
  return (
    <form
      aria-labelledby={`${id}-heading`}
      className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-4"
      onSubmit={async (event) => {
        event.preventDefault();
        await run(async () => {
          const created = await hubSend<{ num: number }>("POST", repoApiUrl(repo, "discussions"), csrfToken, {
            json: { title, description },
          });
          await queryClient.invalidateQueries({ queryKey: ["discussions", repo.type, repo.id] });
          navigate(repoPageUrl(repo, `discussions/${created.num}`));
        });
      }}
    >
      <h3 id={`${id}-heading`} className="font-semibold">
        Start a discussion
      </h3>
      <LabelledText label="Title" value={title} onValue={setTitle} required minLength={3} maxLength={200} />
      <LabelledText label="Message" rows={3} value={description} onValue={setDescription} />
      <button
        type="submit"
        disabled={busy}
        className="self-start rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-ink disabled:opacity-60"
      >
        Open discussion
      </button>
      <ErrorAlert message={error} />
    </form>
  );
}
