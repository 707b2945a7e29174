import { queryOptions, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { hubGet } from "../../lib/api/hub-fetch.js";
import { queryClient } from "../../lib/query-client.js";
import { accountSend } from "../account/account-api.js";
import {
  errorText,
  FormMessage,
  SettingsSection,
  SubmitButton,
  secondaryButtonClass,
  TextField,
  useFormOutcome,
} from "../account/form-parts.js";

/** `GET /api/admin/local-provider` (hub: router/local-provider-routes.ts). */
interface LocalProviderStatus {
  /** Whether the hub process that answered runs the provider (LOCAL_PROVIDER=on). */
  running: boolean;
  calls: { running: number; waiting: number } | null;
  models: {
    modelId: string;
    quantization: string;
    filePath: string;
    enabledBy: string;
    createdAt: string;
    /** loaded: in memory; idle: loaded on its next call; off: this process does not run the provider. */
    state: "loaded" | "idle" | "off";
  }[];
}

const PATH = "/api/admin/local-provider";
const localProviderQuery = queryOptions({
  queryKey: ["admin", "local-provider"],
  queryFn: async ({ signal }) => (await hubGet<LocalProviderStatus>(PATH, signal)).data,
});

const STATE_LABEL = { loaded: "Loaded", idle: "Idle (loads on its next call)", off: "Off" } as const;

/**
 * The built-in llama.cpp provider on `/admin/providers`: whether this hub runs it, the calls it runs and
 * queues, and the GGUF models it is enabled for, each loaded or idle; enable a model's quantization, or
 * disable one. Callers reach them as `owner/name:local`.
 */
export function LocalProviderAdmin() {
  const status = useQuery(localProviderQuery);
  const [error, setError] = useState<string | null>(null);
  const enabled = useFormOutcome();
  const refresh = () => queryClient.invalidateQueries({ queryKey: localProviderQuery.queryKey });
  const enable = enabled.submitAndReset(async (fields) => {
    const model = String(fields.get("model"));
    const row = await accountSend<{ quantization: string; filePath: string }>("PUT", `${PATH}/models`, {
      model,
      quantization: String(fields.get("quantization")),
    });
    await refresh();
    return `Enabled ${model} ${row.quantization} (${row.filePath}).`;
  });
  const disable = async (model: string, quantization: string) => {
    setError(null);
    try {
      await accountSend(
        "DELETE",
        `${PATH}/models?model=${encodeURIComponent(model)}&quantization=${encodeURIComponent(quantization)}`,
      );
      await refresh();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const data = status.data;
  return (
    <>
      <SettingsSection title="Local provider (llama.cpp)">
        <p className="text-sm text-muted">
          GGUF models from this hub's repositories, run on the hub's own CPU and called as{" "}
          <code>owner/name:local</code>.
        </p>
        {status.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
        {status.isError ? <FormMessage error={errorText(status.error)} /> : null}
        {data ? (
          <p className="text-sm" data-testid="local-provider-running">
            {data.running
              ? `Running: ${data.calls?.running ?? 0} calls generating, ${data.calls?.waiting ?? 0} waiting.`
              : "Not running in this hub process (start the hub with LOCAL_PROVIDER=on)."}
          </p>
        ) : null}
        {data?.models.length === 0 ? <p className="text-sm text-muted">No model enabled yet.</p> : null}
        {data?.models.length ? (
          <ul
            className="flex flex-col divide-y divide-line rounded-md border border-line"
            aria-label="Local provider models"
          >
            {data.models.map((model) => (
              <li
                key={`${model.modelId} ${model.quantization}`}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 p-3 text-sm"
              >
                <span className="break-all font-medium">{model.modelId}</span>
                <span className="rounded-full border border-line px-2 py-0.5 text-xs">
                  {model.quantization}
                </span>
                <span className={model.state === "loaded" ? "font-medium" : "text-muted"}>
                  {STATE_LABEL[model.state]}
                </span>
                <span className="break-all text-muted">{model.filePath}</span>
                <button
                  type="button"
                  className={`${secondaryButtonClass} ml-auto`}
                  aria-label={`Disable ${model.modelId} ${model.quantization}`}
                  onClick={() => void disable(model.modelId, model.quantization)}
                >
                  Disable
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <FormMessage error={error} />
      </SettingsSection>
      <SettingsSection title="Enable a model on the local provider" className="flex max-w-xl flex-col gap-3">
        <form
          onSubmit={enable}
          aria-label="Enable a model on the local provider"
          className="flex flex-col gap-3"
        >
          <TextField
            label="Model repository"
            name="model"
            required
            autoComplete="off"
            placeholder="owner/name"
          />
          <TextField
            label="Quantization"
            name="quantization"
            required
            autoComplete="off"
            placeholder="Q4_K_M"
            hint="As its GGUF file's name says it (one file at main)."
          />
          <FormMessage error={enabled.message.error} success={enabled.message.success} />
          <SubmitButton>Enable</SubmitButton>
        </form>
      </SettingsSection>
    </>
  );
}
