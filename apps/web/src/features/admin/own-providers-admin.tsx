import { queryOptions, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { hubGet } from "../../lib/api/hub-fetch.js";
import {
  errorText,
  FormMessage,
  optionalField,
  SettingsSection,
  SubmitButton,
  secondaryButtonClass,
  TextField,
  useFormOutcome,
} from "../account/form-parts.js";
import { adminSend } from "./admin-api.js";
import { LocalProviderAdmin } from "./local-provider-admin.js";

/** An own provider as `GET /api/admin/own-providers` answers (hub: router/own-providers-service.ts). */
interface OwnProviderView {
  name: string;
  baseUrl: string;
  /** Masked (`****abcd`): the key itself is never answered. */
  apiKey: string | null;
  apiKeyEnv: string | null;
  healthPath: string;
  hostedFailover: boolean;
  models: { model: string; kind: "chat" | "embeddings"; servedName: string }[];
  health: { status: "up" | "down" | "unknown"; checkedAt: string | null; error: string | null };
}

const PATH = "/api/admin/own-providers";
const ownProvidersQuery = queryOptions({
  queryKey: ["admin", "own-providers"],
  queryFn: async ({ signal }) => (await hubGet<OwnProviderView[]>(PATH, signal)).data,
});

const HEALTH_LABEL = { up: "Up", down: "Down", unknown: "Not checked yet" } as const;

/**
 * `/admin/providers`: the administrator's own OpenAI-compatible servers behind the router, each with its
 * health (a server that fails its check is skipped until it recovers), its key masked, and the hub models it
 * serves; forms to add or replace a server and to map a model to the name the server knows it by. Removal
 * and unmapping are in the admin CLI (`providers:remove`, `providers:unmap`).
 */
export function OwnProvidersAdmin() {
  const providers = useQuery(ownProvidersQuery);
  const [checking, setChecking] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const added = useFormOutcome();
  const mapped = useFormOutcome();
  const checkNow = async () => {
    setChecking({ busy: true });
    try {
      await adminSend("POST", `${PATH}/check`, {}, ["admin"]);
      setChecking({ busy: false });
    } catch (error) {
      setChecking({ busy: false, error: errorText(error) });
    }
  };
  const add = added.submitAndReset(async (fields) => {
    const name = String(fields.get("name"));
    await adminSend(
      "PUT",
      `${PATH}/${encodeURIComponent(name)}`,
      {
        baseUrl: String(fields.get("baseUrl")),
        apiKey: optionalField(fields, "apiKey"),
        apiKeyEnv: optionalField(fields, "apiKeyEnv"),
        healthPath: optionalField(fields, "healthPath"),
      },
      ["admin"],
    );
    return `Saved ${name}.`;
  });
  const map = mapped.submitAndReset(async (fields) => {
    const name = String(fields.get("provider"));
    const kind = optionalField(fields, "kind") ?? "chat";
    await adminSend(
      "PUT",
      `${PATH}/${encodeURIComponent(name)}/models`,
      { model: String(fields.get("model")), servedName: String(fields.get("servedName")), kind },
      ["admin"],
    );
    return `${String(fields.get("model"))} is served by ${name}.`;
  });
  return (
    <div className="flex flex-col gap-8">
      <SettingsSection title="Own inference providers">
        <p className="text-sm text-muted">
          OpenAI-compatible servers (vLLM, Text Generation Inference, llama.cpp's server, Ollama…) that the
          router uses as any provider: `owner/name`, `owner/name:server-name`, `:fastest`, with failover.
        </p>
        {providers.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
        {providers.isError ? <FormMessage error={errorText(providers.error)} /> : null}
        {providers.data?.length === 0 ? <p className="text-sm text-muted">No own providers yet.</p> : null}
        {providers.data?.length ? (
          <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
            {providers.data.map((provider) => (
              <li key={provider.name} className="flex flex-col gap-1 p-3 text-sm">
                <div className="flex flex-wrap items-baseline gap-x-3">
                  <span className="font-medium">{provider.name}</span>
                  <span className="text-muted">{provider.baseUrl}</span>
                  <span
                    className={provider.health.status === "down" ? "font-medium text-danger" : "text-muted"}
                  >
                    {HEALTH_LABEL[provider.health.status]}
                    {provider.health.error ? ` (${provider.health.error})` : ""}
                  </span>
                </div>
                <div className="text-muted">
                  Key: {provider.apiKey ?? (provider.apiKeyEnv ? `from ${provider.apiKeyEnv}` : "none")} ·
                  health path {provider.healthPath}
                  {provider.hostedFailover ? "" : " · calls stay off hosted providers"}
                </div>
                {provider.models.length ? (
                  <ul className="text-muted">
                    {provider.models.map((model) => (
                      <li key={`${model.model} ${model.kind}`}>
                        {model.model} ({model.kind}) as {model.servedName}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-muted">Serves no hub model yet.</p>
                )}
              </li>
            ))}
          </ul>
        ) : null}
        <div>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={checking.busy}
            onClick={() => void checkNow()}
          >
            Check health now
          </button>
        </div>
        <FormMessage error={checking.error} />
      </SettingsSection>
      <SettingsSection title="Add or replace a server" className="flex max-w-xl flex-col gap-3">
        <form onSubmit={add} aria-label="Add or replace a server" className="flex flex-col gap-3">
          <TextField label="Name" name="name" required autoComplete="off" hint="Used as model:name." />
          <TextField
            label="Base URL"
            name="baseUrl"
            required
            autoComplete="off"
            placeholder="http://gpu-1:8000/v1"
          />
          <TextField
            label="API key"
            name="apiKey"
            type="password"
            autoComplete="off"
            hint="Stored encrypted; left empty, a replaced server keeps its key."
          />
          <TextField
            label="Key variable"
            name="apiKeyEnv"
            autoComplete="off"
            hint="Or the environment variable holding it (OWN_PROVIDER_KEY_…)."
          />
          <TextField
            label="Health path"
            name="healthPath"
            autoComplete="off"
            hint="Default: the base URL's /models."
          />
          <FormMessage error={added.message.error} success={added.message.success} />
          <SubmitButton>Save server</SubmitButton>
        </form>
      </SettingsSection>
      <SettingsSection title="Serve a hub model" className="flex max-w-xl flex-col gap-3">
        <form onSubmit={map} aria-label="Serve a hub model" className="flex flex-col gap-3">
          <TextField label="Server" name="provider" required autoComplete="off" />
          <TextField label="Hub model" name="model" required autoComplete="off" placeholder="owner/name" />
          <TextField label="Name on the server" name="servedName" required autoComplete="off" />
          <TextField label="Kind" name="kind" autoComplete="off" hint="chat (default) or embeddings." />
          <FormMessage error={mapped.message.error} success={mapped.message.success} />
          <SubmitButton>Map model</SubmitButton>
        </form>
      </SettingsSection>
      <LocalProviderAdmin />
    </div>
  );
}
