import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { type RadioChoice, RadioOptions } from "../../components/ui/radio-options.js";
import { queryClient } from "../../lib/query-client.js";
import {
  createAccessToken,
  describeToken,
  type IssuedToken,
  revokeAccessToken,
  type TokenRequest,
  tokensQuery,
} from "./access-tokens.js";
import type { AccessToken } from "./account-api.js";
import {
  errorText,
  FormMessage,
  inputClass,
  SettingsSection,
  SubmitButton,
  secondaryButtonClass,
  TextField,
} from "./form-parts.js";
import { TokenReveal } from "./token-reveal.js";

type Permission = "repo.content.read" | "repo.write" | "repo.manage";
const PERMISSION_LABELS: Record<Permission, string> = {
  "repo.content.read": "read",
  "repo.write": "write",
  "repo.manage": "manage",
};
const EXPIRIES = [
  { days: 0, label: "Never" },
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
];

function formatDate(iso: string | null): string {
  return iso
    ? new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" })
    : "never";
}

/** The token types: each name, and what a token of the type may do. */
const TOKEN_ROLES: RadioChoice<AccessToken["role"]>[] = (
  [
    ["read", "Read", "Read the repositories you can see and call inference providers."],
    ["write", "Write", "Everything you can do, your account settings excepted."],
    ["fineGrained", "Fine-grained", "Only what you choose below."],
  ] as const
).map(([value, name, hint]) => ({
  value,
  label: (
    <span>
      <span className="font-medium">{name}</span> <span className="text-muted">— {hint}</span>
    </span>
  ),
}));

const ROLE_LOOK = { label: "flex items-start gap-2 text-sm", input: "mt-1 accent-accent" };

/** Create (read, write or fine-grained; shown once), list and revoke the user's access tokens. */
export function TokensSettings({ orgs }: { orgs: readonly string[] }) {
  const tokens = useQuery(tokensQuery);
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [role, setRole] = useState<AccessToken["role"]>("read");
  const [scopes, setScopes] = useState<Array<{ name: string; permission: Permission }>>([]);
  const [listError, setListError] = useState<string | null>(null);
  const ids = useId();

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const days = Number(form.get("expiry"));
    const request: TokenRequest = {
      name: String(form.get("name")),
      role,
      ...(days > 0 ? { expiresAt: new Date(Date.now() + days * 86_400_000).toISOString() } : {}),
    };
    if (role === "fineGrained") {
      request.fineGrained = {
        canReadGatedRepos: form.get("gated") === "on",
        global: form.get("inference") === "on" ? ["inference.serverless.write"] : [],
        scoped: scopes
          .filter((scope) => scope.name.trim() !== "")
          .map((scope) => {
            const name = scope.name.trim();
            const type = name.includes("/") ? "model" : orgs.includes(name) ? "org" : "user";
            return { entity: { type, name }, permissions: [scope.permission] };
          }),
      };
    }
    setError(null);
    try {
      const made = await createAccessToken(request);
      setIssued(made);
      formElement.reset();
      setRole("read");
      setScopes([]);
      await queryClient.invalidateQueries({ queryKey: tokensQuery.queryKey });
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const revoke = async (token: AccessToken) => {
    setListError(null);
    try {
      await revokeAccessToken(token.id);
      await queryClient.invalidateQueries({ queryKey: tokensQuery.queryKey });
    } catch (failure) {
      setListError(errorText(failure));
    }
  };

  const live = (tokens.data ?? []).filter((token) => token.revokedAt === null);
  return (
    <div className="flex flex-col gap-8">
      <SettingsSection title="New access token" className="flex flex-col gap-4">
        <p className="text-sm text-muted">
          Tools use tokens instead of your password: <code className="font-mono">hf auth login</code>, the
          inference clients, <code className="font-mono">HF_TOKEN</code>.
        </p>
        <form onSubmit={create} className="flex max-w-xl flex-col gap-4" aria-label="New access token">
          <TextField label="Token name" name="name" required maxLength={100} placeholder="laptop, CI, …" />
          <fieldset className="flex flex-col gap-2">
            <legend className="text-sm font-medium">Token type</legend>
            <RadioOptions options={TOKEN_ROLES} choice={role} onChoose={setRole} look={ROLE_LOOK} />
          </fieldset>
          {role === "fineGrained" ? (
            <fieldset className="flex flex-col gap-3 rounded-md border border-line p-3">
              <legend className="px-1 text-sm font-medium">Permissions</legend>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="inference" defaultChecked className="accent-accent" />
                Make calls to inference providers
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="gated" className="accent-accent" />
                Read gated repositories you were granted
              </label>
              <ul className="flex flex-col gap-2">
                {scopes.map((scope, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place.
                  <li key={index} className="flex flex-wrap items-end gap-2">
                    <div className="flex min-w-0 flex-1 flex-col gap-1">
                      <label htmlFor={`${ids}-scope-${index}`} className="text-xs font-medium">
                        Repository or namespace
                      </label>
                      <input
                        id={`${ids}-scope-${index}`}
                        value={scope.name}
                        placeholder="you, your-org or owner/model"
                        onChange={(event) =>
                          setScopes(
                            scopes.map((s, i) => (i === index ? { ...s, name: event.target.value } : s)),
                          )
                        }
                        className={inputClass}
                      />
                    </div>
                    <div className="flex flex-col gap-1">
                      <label htmlFor={`${ids}-perm-${index}`} className="text-xs font-medium">
                        Access
                      </label>
                      <select
                        id={`${ids}-perm-${index}`}
                        value={scope.permission}
                        onChange={(event) =>
                          setScopes(
                            scopes.map((s, i) =>
                              i === index ? { ...s, permission: event.target.value as Permission } : s,
                            ),
                          )
                        }
                        className={`${inputClass} w-auto`}
                      >
                        {Object.entries(PERMISSION_LABELS).map(([value, label]) => (
                          <option key={value} value={value}>
                            {label}
                          </option>
                        ))}
                      </select>
                    </div>
                    <button
                      type="button"
                      className={secondaryButtonClass}
                      onClick={() => setScopes(scopes.filter((_, i) => i !== index))}
                    >
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                className={`${secondaryButtonClass} self-start`}
                onClick={() => setScopes([...scopes, { name: "", permission: "repo.content.read" }])}
              >
                Add a repository or namespace
              </button>
            </fieldset>
          ) : null}
          <div className="flex flex-col gap-1">
            <label htmlFor={`${ids}-expiry`} className="text-sm font-medium">
              Expires
            </label>
            <select
              id={`${ids}-expiry`}
              name="expiry"
              defaultValue="0"
              className={`${inputClass} w-auto self-start`}
            >
              {EXPIRIES.map((expiry) => (
                <option key={expiry.days} value={expiry.days}>
                  {expiry.label}
                </option>
              ))}
            </select>
          </div>
          <FormMessage error={error} />
          <SubmitButton>Create token</SubmitButton>
        </form>
        {issued ? <TokenReveal token={issued.token} name={issued.name} /> : null}
      </SettingsSection>
      <SettingsSection title="Your tokens">
        <FormMessage error={listError ?? (tokens.isError ? errorText(tokens.error) : null)} />
        {tokens.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
        {tokens.data && live.length === 0 ? <p className="text-sm text-muted">No tokens yet.</p> : null}
        <ul
          className="flex flex-col divide-y divide-line rounded-md border border-line"
          aria-label="Access tokens"
        >
          {live.map((token) => (
            <li key={token.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 p-3">
              <div className="min-w-0 flex-1">
                <p className="break-words font-medium">{token.name}</p>
                <p className="text-xs text-muted">
                  <span className="font-mono">{token.hint}</span> · {describeToken(token)} · created{" "}
                  {formatDate(token.createdAt)} · last used {formatDate(token.lastUsedAt)}
                  {token.expiresAt ? ` · expires ${formatDate(token.expiresAt)}` : ""}
                </p>
              </div>
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => revoke(token)}
                aria-label={`Revoke ${token.name}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      </SettingsSection>
    </div>
  );
}
