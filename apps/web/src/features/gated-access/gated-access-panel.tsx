import { queryOptions, useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useMemo, useState } from "react";
import { Link, useLocation } from "react-router";
import { hubGet, hubSend } from "../../lib/api/hub-fetch.js";
import { type Viewer, viewerQuery } from "../../lib/api/session.js";
import { queryClient } from "../../lib/query-client.js";
import { type RepoRef, repoApiUrl } from "../../lib/repo-ref.js";
import { buttonClass, errorText, inputClass } from "../account/form-parts.js";
import { type GateField, type GateForm, gateAnswers, gateForm } from "./gate-fields.js";

/** Where the viewer stands with a gated repository. */
type GateState =
  | { kind: "signed-out" }
  /** They may read the files: an owner, an admin, or a user whose request was accepted (`asked`). */
  | { kind: "granted"; asked: boolean }
  | { kind: "ask" }
  | { kind: "pending" | "rejected"; since: string };

interface OwnRequest {
  access: boolean;
  request: { status: "pending" | "accepted" | "rejected"; timestamp: string } | null;
}

const gateStateQuery = (repo: RepoRef, viewer: Viewer | null) =>
  queryOptions({
    queryKey: ["gate-state", repo.type, repo.id, viewer?.name ?? null],
    queryFn: async ({ signal }): Promise<GateState> => {
      if (!viewer) return { kind: "signed-out" };
      const { access, request } = (await hubGet<OwnRequest>(repoApiUrl(repo, "ask-access"), signal)).data;
      // An owner or an administrator reads the files without asking; a granted user is told so.
      if (access) return { kind: "granted", asked: request?.status === "accepted" };
      if (request?.status === "pending" || request?.status === "rejected") {
        return { kind: request.status, since: request.timestamp };
      }
      return { kind: "ask" };
    },
  });

const boxClass = "flex flex-col gap-3 rounded-lg border border-line bg-surface p-4 text-sm";

/**
 * A gated repository's gate for the viewer, as on the public hub: a signed-out visitor is asked to sign in,
 * a signed-in one gets the request form (with the fields the card's `extra_gated_fields` asks for), then
 * sees their request pending, accepted or rejected. Owners, who read the files already, see nothing.
 */
export function GatedAccessPanel({
  repo,
  gated,
  cardData,
}: {
  repo: RepoRef;
  gated: false | string | undefined;
  cardData: Record<string, unknown> | undefined;
}) {
  const viewer = useQuery(viewerQuery());
  const state = useQuery({
    ...gateStateQuery(repo, viewer.data ?? null),
    enabled: Boolean(gated) && viewer.isSuccess,
  });
  const form = useMemo(() => gateForm(cardData), [cardData]);
  const location = useLocation();
  if (!gated || !state.data) return null;
  const headingId = `gate-${repo.id}`;
  switch (state.data.kind) {
    case "granted":
      return state.data.asked ? (
        <p role="status" className={`${boxClass} text-ok`}>
          You have been granted access to this {repo.type}.
        </p>
      ) : null;
    case "signed-out":
      return (
        <section aria-labelledby={headingId} className={boxClass}>
          <h2 id={headingId} className="font-semibold">
            {form.heading ?? `You need to ask for access to this ${repo.type}'s files`}
          </h2>
          <p>
            <Link
              to={`/login?next=${encodeURIComponent(location.pathname)}`}
              className="text-accent underline"
            >
              Sign in
            </Link>{" "}
            to ask the owners for access.
          </p>
        </section>
      );
    case "pending":
      return (
        <p role="status" className={boxClass}>
          Your request to access this {repo.type} is awaiting review by its owners.
        </p>
      );
    case "rejected":
      return (
        <p role="status" className={`${boxClass} text-danger`}>
          The owners of this {repo.type} declined your request for access.
        </p>
      );
    case "ask":
      return <AskAccessForm repo={repo} form={form} csrfToken={viewer.data?.csrfToken ?? ""} />;
  }
}

function AskAccessForm({ repo, form, csrfToken }: { repo: RepoRef; form: GateForm; csrfToken: string }) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await hubSend("POST", repoApiUrl(repo, "ask-access"), csrfToken, {
        json: gateAnswers(form, new FormData(event.currentTarget)),
      });
      await queryClient.invalidateQueries({ queryKey: ["gate-state", repo.type, repo.id] });
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby={headingId} className={boxClass}>
      <h2 id={headingId} className="font-semibold">
        {form.heading ?? `You need to ask for access to this ${repo.type}'s files`}
      </h2>
      {form.prompt ? <p className="whitespace-pre-line">{form.prompt}</p> : null}
      {form.description ? <p className="whitespace-pre-line text-muted">{form.description}</p> : null}
      <form onSubmit={submit} className="flex max-w-xl flex-col gap-3" aria-label="Ask for access">
        {form.fields.map((field) => (
          <GateInput key={field.label} field={field} />
        ))}
        <button type="submit" className={`${buttonClass} self-start`} disabled={busy}>
          {form.button}
        </button>
        {error ? (
          <p role="alert" className="text-danger">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}

function GateInput({ field }: { field: GateField }) {
  const id = useId();
  if (field.kind === "checkbox") {
    return (
      <label className="flex items-start gap-2">
        <input type="checkbox" name={field.label} required className="mt-1 accent-accent" />
        <span>{field.label}</span>
      </label>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-medium">
        {field.label}
      </label>
      {field.kind === "select" ? (
        <select id={id} name={field.label} required className={inputClass} defaultValue="">
          <option value="" disabled>
            Choose…
          </option>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          name={field.label}
          type={field.kind === "date" ? "date" : "text"}
          autoComplete={field.kind === "country" ? "country-name" : undefined}
          required
          maxLength={2000}
          className={inputClass}
        />
      )}
    </div>
  );
}
