import { useId, useState } from "react";
import { LabelledText } from "../../components/ui/labelled-text.js";

export interface CommitChoice {
  title: string;
  description: string;
  asPullRequest: boolean;
}

/**
 * Title, description, and where the change goes: straight to the branch (writers) or as a pull request
 * (offered to everyone, the only choice for those who may not write).
 */
export function CommitFields({
  canCommitDirectly,
  revision,
  defaultTitle,
  disabled,
  submitLabel,
  pullRequestLabel = "Open pull request",
  onSubmit,
}: {
  canCommitDirectly: boolean;
  revision: string;
  defaultTitle: string;
  disabled: boolean;
  /** The button's text for a direct commit, or its progress text while sending ("Uploading…", shown as is). */
  submitLabel: string;
  /** The button's text when the change goes as a pull request. */
  pullRequestLabel?: string;
  onSubmit: (choice: CommitChoice) => void;
}) {
  const id = useId();
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [asPullRequest, setAsPullRequest] = useState(!canCommitDirectly);
  const pullRequest = asPullRequest || !canCommitDirectly;
  return (
    <form
      className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit({ title: title.trim() || defaultTitle, description, asPullRequest: pullRequest });
      }}
    >
      <LabelledText label="Commit title" value={title} onValue={setTitle} placeholder={defaultTitle} />
      <LabelledText label="Description (optional)" rows={3} value={description} onValue={setDescription} />
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="mb-1 font-medium">Where the change goes</legend>
        {canCommitDirectly ? (
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`${id}-target`}
              checked={!pullRequest}
              onChange={() => setAsPullRequest(false)}
            />
            Commit directly to <span className="font-mono">{revision}</span>
          </label>
        ) : (
          <p className="text-muted">You cannot write to this repository: your change opens a pull request.</p>
        )}
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={`${id}-target`}
            checked={pullRequest}
            onChange={() => setAsPullRequest(true)}
          />
          Open a pull request
        </label>
      </fieldset>
      <button
        type="submit"
        disabled={disabled}
        className="self-start rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-ink disabled:opacity-60"
      >
        {pullRequest && !submitLabel.endsWith("…") ? pullRequestLabel : submitLabel}
      </button>
    </form>
  );
}
