import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { type RadioChoice, RadioOptions } from "../../components/ui/radio-options.js";
import { Select, type SelectOption } from "../../components/ui/select.js";
import { createRepo } from "../../lib/api/repos.js";
import { viewerQuery } from "../../lib/api/session.js";
import { LICENSES } from "../../lib/licenses.js";
import { type RepoRef, repoPageUrl } from "../../lib/repo-ref.js";
import { commitInitialCard, initialCard } from "./initial-card.js";

/** Names as the hub takes them: letters, digits, `-`, `_`, `.`, starting and ending with a letter or digit. */
const NAME_PATTERN = "[A-Za-z0-9](?:[A-Za-z0-9._\\-]{0,94}[A-Za-z0-9])?";
const NO_LICENSE = "none";

/** The SDKs a space can declare, as the public hub's new-space page offers them. */
const SPACE_SDKS = [
  { value: "gradio", label: "Gradio", hint: "Python apps with Gradio" },
  { value: "streamlit", label: "Streamlit", hint: "Python data apps" },
  { value: "docker", label: "Docker", hint: "any app from a Dockerfile" },
  { value: "static", label: "Static", hint: "HTML, CSS and JavaScript" },
];

/** A choice's name in bold over a line that says what it means. */
function explained<Value extends string>(value: Value, name: string, meaning: string): RadioChoice<Value> {
  return {
    value,
    label: (
      <span>
        <span className="font-medium">{name}</span>
        <span className="block text-muted">{meaning}</span>
      </span>
    ),
  };
}

const SDK_CHOICES = SPACE_SDKS.map((sdk) => explained(sdk.value, sdk.label, sdk.hint));
const SDK_LOOK = {
  label: "flex items-start gap-2 rounded-md border border-line p-2 text-sm has-[:checked]:border-accent",
  input: "mt-1",
  required: true,
};

const visibilityChoices = (kind: string) => [
  explained("public", "Public", `Anyone can see this ${kind}; only you (or your organization) can commit.`),
  explained("private", "Private", `Only you (or members of your organization) can see this ${kind}.`),
];

const LICENSE_OPTIONS: SelectOption[] = [
  { value: NO_LICENSE, label: "No license yet" },
  ...LICENSES.map(([value, label]) => ({ value, label })),
];

const KIND = { model: "model", dataset: "dataset", space: "space" } as const;

const inputClass =
  "h-9 w-full rounded-md border border-line bg-surface px-3 text-sm placeholder:text-muted/70 focus:border-accent";

/**
 * New model / dataset / space: owner (the viewer or an organization where they may write), name,
 * visibility, license, and a space's SDK; creates through `POST /api/repos/create` (the license in a first
 * README) and lands on the new repository.
 */
export function NewRepoForm({ type }: { type: RepoRef["type"] }) {
  const viewer = useQuery(viewerQuery());
  const location = useLocation();
  if (viewer.isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (!viewer.data) {
    const next = encodeURIComponent(`${location.pathname}${location.search}`);
    return (
      <p className="rounded-lg border border-dashed border-line p-8 text-center text-muted">
        <Link to={`/login?next=${next}`} className="text-accent underline">
          Sign in
        </Link>{" "}
        to create a {KIND[type]}.
      </p>
    );
  }
  // `?owner=` (an organization page's "New model" link) preselects that owner when the viewer may write there.
  const wanted = new URLSearchParams(location.search).get("owner");
  const namespaces = viewer.data.writableNamespaces;
  return (
    <SignedInForm
      type={type}
      namespaces={namespaces}
      initialOwner={wanted !== null && namespaces.includes(wanted) ? wanted : namespaces[0]}
      csrf={viewer.data.csrfToken}
    />
  );
}

function SignedInForm({
  type,
  namespaces,
  initialOwner,
  csrf,
}: {
  type: RepoRef["type"];
  namespaces: string[];
  initialOwner: string | undefined;
  csrf: string;
}) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [owner, setOwner] = useState(initialOwner ?? "");
  const [name, setName] = useState("");
  const [visibility, setVisibility] = useState<"public" | "private">("public");
  const [license, setLicense] = useState(NO_LICENSE);
  const [sdk, setSdk] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (type === "space" && !sdk) {
      setError("Choose the space's SDK.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const repo = await createRepo(
        { type, owner, name: name.trim(), private: visibility === "private", ...(sdk ? { sdk } : {}) },
        csrf,
      );
      if (license !== NO_LICENSE) {
        const fields: Record<string, string | boolean> =
          type === "space" ? { title: name.trim(), sdk, pinned: false, license } : { license };
        await commitInitialCard(repo, initialCard(fields), csrf);
      }
      await queryClient.invalidateQueries({ queryKey: ["repos"] });
      await queryClient.invalidateQueries({ queryKey: ["models"] });
      navigate(repoPageUrl(repo));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(false);
    }
  }

  const ownerOptions = namespaces.map((namespace) => ({ value: namespace, label: namespace }));
  return (
    <form
      aria-label={`New ${KIND[type]}`}
      onSubmit={submit}
      className="flex flex-col gap-5 rounded-lg border border-line bg-surface p-4 sm:p-6"
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,12rem)_auto_minmax(0,1fr)] sm:items-end">
        <Select label="Owner" value={owner} options={ownerOptions} onValueChange={setOwner} />
        <span aria-hidden="true" className="hidden pb-2 text-lg text-muted sm:block">
          /
        </span>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={`${id}-name`} className="text-xs font-medium text-muted">
            {`${KIND[type][0]?.toUpperCase()}${KIND[type].slice(1)} name`}
          </label>
          <input
            id={`${id}-name`}
            required
            pattern={NAME_PATTERN}
            maxLength={96}
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoComplete="off"
            aria-describedby={`${id}-name-hint`}
            className={inputClass}
          />
        </div>
      </div>
      <p id={`${id}-name-hint`} className="-mt-3 text-xs text-muted">
        Letters, digits, “-”, “_” and “.”; it starts and ends with a letter or a digit.
      </p>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Visibility</legend>
        <RadioOptions
          options={visibilityChoices(KIND[type])}
          choice={visibility}
          onChoose={setVisibility}
          look={{ label: "flex items-start gap-2 text-sm", input: "mt-1" }}
        />
      </fieldset>
      {type === "space" ? (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">SDK</legend>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            <RadioOptions options={SDK_CHOICES} choice={sdk} onChoose={setSdk} look={SDK_LOOK} />
          </div>
        </fieldset>
      ) : null}
      <Select
        label="License"
        value={license}
        options={LICENSE_OPTIONS}
        onValueChange={setLicense}
        className="sm:max-w-xs"
      />
      {error ? (
        <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          disabled={busy}
          className="inline-flex h-9 items-center justify-center rounded-md bg-accent px-4 text-sm font-medium text-accent-ink hover:opacity-90 disabled:opacity-60"
        >
          {busy ? "Creating…" : `Create ${KIND[type]}`}
        </button>
      </div>
    </form>
  );
}
