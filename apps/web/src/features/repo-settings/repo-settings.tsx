import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { LabelledText } from "../../components/ui/labelled-text.js";
import { ErrorAlert } from "../../components/ui/query-state.js";
import { hubGet, hubSend } from "../../lib/api/hub-fetch.js";
import { canWrite, type Viewer, viewerQuery } from "../../lib/api/session.js";
import { queryClient } from "../../lib/query-client.js";
import { type RepoRef, repoApiUrl, repoPageUrl } from "../../lib/repo-ref.js";
import { AccessRequests } from "./access-requests.js";
import { useRepoAction } from "./use-repo-action.js";

interface RepoState {
  private: boolean;
  gated: false | "auto" | "manual";
}

const sectionClass = "flex flex-col gap-3 rounded-lg border border-line bg-surface p-4";
const buttonClass =
  "self-start rounded-md bg-accent px-4 py-2 text-sm font-medium text-accent-ink disabled:opacity-60";

/** Visibility, gating with its request queue, rename/move, delete: for the repository's writers. */
export function RepoSettings({ repo }: { repo: RepoRef }) {
  const viewer = useQuery(viewerQuery());
  const state = useQuery({
    queryKey: ["repo-state", repo.type, repo.id],
    queryFn: async ({ signal }) => (await hubGet<RepoState>(repoApiUrl(repo), signal)).data,
  });
  if (viewer.isPending || state.isPending) return <p className="text-muted">Loading settings…</p>;
  if (!viewer.data || !canWrite(viewer.data, repo.id)) {
    return (
      <p role="alert" className="rounded-lg border border-dashed border-line p-6 text-center">
        Only the repository's owners can change its settings.
      </p>
    );
  }
  if (state.isError) {
    return <ErrorAlert message={state.error.message} />;
  }
  return (
    <div className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">Settings</h2>
      <Visibility repo={repo} viewer={viewer.data} state={state.data} />
      <Gating repo={repo} viewer={viewer.data} state={state.data} />
      {state.data.gated ? <AccessRequests repo={repo} csrfToken={viewer.data.csrfToken} /> : null}
      <Rename repo={repo} viewer={viewer.data} />
      <Delete repo={repo} viewer={viewer.data} />
    </div>
  );
}

async function refresh(repo: RepoRef) {
  await queryClient.invalidateQueries({ queryKey: ["repo-state", repo.type, repo.id] });
  await queryClient.invalidateQueries({ queryKey: ["model", repo.id] });
  // A dataset's or space's header and card read the repository's info.
  await queryClient.invalidateQueries({ queryKey: ["repo-info", repo.type, repo.id] });
}

function Status({ message }: { message: { kind: "ok" | "error"; text: string } | null }) {
  if (!message) return null;
  return message.kind === "ok" ? (
    <p role="status" className="text-sm text-ok">
      {message.text}
    </p>
  ) : (
    <p role="alert" className="text-sm text-danger">
      {message.text}
    </p>
  );
}

function Visibility({ repo, viewer, state }: { repo: RepoRef; viewer: Viewer; state: RepoState }) {
  const { busy, message, run } = useRepoAction();
  const next = state.private ? "public" : "private";
  return (
    <section aria-labelledby="visibility-heading" className={sectionClass}>
      <h3 id="visibility-heading" className="font-semibold">
        Visibility
      </h3>
      <p className="text-sm" data-testid="visibility">
        This repository is <strong>{state.private ? "private" : "public"}</strong>.{" "}
        {state.private ? "Only you and your organization's members can see it." : "Anyone can see it."}
      </p>
      <button
        type="button"
        disabled={busy}
        className={buttonClass}
        onClick={() =>
          run(async () => {
            await hubSend("PUT", repoApiUrl(repo, "settings"), viewer.csrfToken, {
              json: { visibility: next },
            });
            await refresh(repo);
          }, `The repository is now ${next}.`)
        }
      >
        Make {next}
      </button>
      <Status message={message} />
    </section>
  );
}

function Gating({ repo, viewer, state }: { repo: RepoRef; viewer: Viewer; state: RepoState }) {
  const id = useId();
  const { busy, message, run } = useRepoAction();
  const options = [
    { value: "off", label: "Not gated: anyone who can see the repository can download its files" },
    { value: "auto", label: "Gated, approved at once: people ask and get access" },
    { value: "manual", label: "Gated, approved by you: requests wait in the queue below" },
  ];
  const current = state.gated === false ? "off" : state.gated;
  return (
    <section aria-labelledby={`${id}-heading`} className={sectionClass}>
      <h3 id={`${id}-heading`} className="font-semibold">
        Access requests (gating)
      </h3>
      <fieldset className="flex flex-col gap-1 text-sm" disabled={busy}>
        <legend className="sr-only">Gating</legend>
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-2">
            <input
              type="radio"
              name={`${id}-gated`}
              checked={current === option.value}
              onChange={() =>
                run(async () => {
                  await hubSend("PUT", repoApiUrl(repo, "settings"), viewer.csrfToken, {
                    json: { gated: option.value === "off" ? false : option.value },
                  });
                  await refresh(repo);
                }, "Gating saved.")
              }
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <Status message={message} />
    </section>
  );
}

function Rename({ repo, viewer }: { repo: RepoRef; viewer: Viewer }) {
  const id = useId();
  const navigate = useNavigate();
  const [target, setTarget] = useState(repo.id);
  const { busy, message, run } = useRepoAction();
  return (
    <form
      aria-labelledby={`${id}-heading`}
      className={sectionClass}
      onSubmit={(event) => {
        event.preventDefault();
        run(async () => {
          await hubSend("POST", "/api/repos/move", viewer.csrfToken, {
            json: { fromRepo: repo.id, toRepo: target.trim(), type: repo.type },
          });
          await queryClient.invalidateQueries();
          navigate(repoPageUrl({ ...repo, id: target.trim() }));
        }, "Moved.");
      }}
    >
      <h3 id={`${id}-heading`} className="font-semibold">
        Rename or move
      </h3>
      <LabelledText
        label="New id (owner/name); the old address redirects to it"
        value={target}
        onValue={setTarget}
        mono
      />
      <button type="submit" disabled={busy || target.trim() === repo.id} className={buttonClass}>
        Rename
      </button>
      <Status message={message} />
    </form>
  );
}

function Delete({ repo, viewer }: { repo: RepoRef; viewer: Viewer }) {
  const id = useId();
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const { busy, message, run } = useRepoAction();
  const [owner, ...rest] = repo.id.split("/");
  return (
    <form
      aria-labelledby={`${id}-heading`}
      className={`${sectionClass} border-danger`}
      onSubmit={(event) => {
        event.preventDefault();
        run(async () => {
          await hubSend("DELETE", "/api/repos/delete", viewer.csrfToken, {
            json: { name: rest.join("/"), organization: owner, type: repo.type },
          });
          await queryClient.invalidateQueries();
          navigate(repo.type === "model" ? "/models" : `/${repo.type}s`);
        }, "Deleted.");
      }}
    >
      <h3 id={`${id}-heading`} className="font-semibold text-danger">
        Delete this repository
      </h3>
      <p className="text-sm">
        Its files, history, pull requests and discussions go too. This cannot be undone.
      </p>
      <LabelledText
        label={
          <>
            Type <strong className="font-mono">{repo.id}</strong> to confirm
          </>
        }
        value={typed}
        onValue={setTyped}
        autoComplete="off"
        mono
      />
      <button
        type="submit"
        disabled={busy || typed !== repo.id}
        className="self-start rounded-md bg-danger px-4 py-2 text-sm font-medium text-surface disabled:opacity-60"
      >
        Delete {repo.id}
      </button>
      <Status message={message} />
    </form>
  );
}
