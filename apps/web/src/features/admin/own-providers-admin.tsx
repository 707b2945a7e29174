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
import {
  ConnectionFields,
  mappingOf,
  ProviderSummary,
  type ProviderSummaryView,
  ServedModels,
  ServeModelForm,
} from "../own-providers/provider-parts.js";
import { adminSend } from "./admin-api.js";
import { LocalProviderAdmin } from "./local-provider-admin.js";

/** An own provider as `GET /api/admin/own-providers` answers (hub: router/own-providers-service.ts). */
interface OwnProviderView extends ProviderSummaryView {
  name: string;
  /** Masked (`****abcd`): the key itself is never answered. */
  apiKey: string | null;
  apiKeyEnv: string | null;
}

const PATH = "/api/admin/own-providers";
const ownProvidersQuery = queryOptions({
  queryKey: ["admin", "own-providers"],
  queryFn: async ({ signal }) => (await hubGet<OwnProviderView[]>(PATH, signal)).data,
});

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
    await adminSend("PUT", `${PATH}/${encodeURIComponent(name)}/models`, mappingOf(fields), ["admin"]);
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
                <ProviderSummary
                  title={provider.name}
                  provider={provider}
                  keyText={provider.apiKey ?? (provider.apiKeyEnv ? `from ${provider.apiKeyEnv}` : "none")}
                />
                <ServedModels models={provider.models} />
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
          <ConnectionFields
            placeholder="http://gpu-1:8000/v1"
            keyExtra={
              <TextField
                label="Key variable"
                name="apiKeyEnv"
                autoComplete="off"
                hint="Or the environment variable holding it (OWN_PROVIDER_KEY_…)."
              />
            }
          />
          <FormMessage error={added.message.error} success={added.message.success} />
          <SubmitButton>Save server</SubmitButton>
        </form>
      </SettingsSection>
      <ServeModelForm onSubmit={map} message={mapped.message} providerLabel="Server" />
      <LocalProviderAdmin />
    </div>
  );
}
