import { type InferenceProvider, isInferenceProvider } from "@modelhub/inference";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { Select } from "../../components/ui/select.js";
import type { ModelInfo, ProviderMapping } from "../../lib/api/models.js";
import { providerLabel } from "../../lib/providers.js";
import { ChatPlayground } from "./chat-playground.js";
import { MEDIA_TASKS, MediaPlayground, type MediaTask } from "./media-playground.js";
import { TaskPlayground } from "./task-playground.js";

type UsableMapping = ProviderMapping & { provider: InferenceProvider };

/** Try the model here: calls go from this browser through the hub's router to the provider. */
export function Playground({ model, hubUrl }: { model: ModelInfo; hubUrl: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [accessToken, setAccessToken] = useState("");
  const mappings = model.inferenceProviderMapping.filter((mapping): mapping is UsableMapping =>
    isInferenceProvider(mapping.provider),
  );
  const wanted = searchParams.get("provider");
  const mapping =
    mappings.find((entry) => entry.provider === wanted) ??
    mappings.find((entry) => entry.status === "live") ??
    mappings[0];

  if (!mapping) return <p className="text-muted">No inference provider serves this model.</p>;

  const task = mapping.task;
  const common = { provider: mapping.provider, hubUrl, accessToken };
  return (
    <section
      aria-labelledby="playground-heading"
      className="flex flex-col gap-4 rounded-lg border border-line bg-surface p-4"
    >
      <h2 id="playground-heading" className="text-lg font-semibold">
        Try {model.id}
      </h2>
      <div className="flex flex-wrap items-end gap-4">
        <Select
          label="Provider"
          value={mapping.provider}
          options={mappings.map((entry) => ({
            value: entry.provider,
            label: providerLabel(entry.provider),
            hint:
              entry.status === "staging" ? (
                <span className="rounded bg-warn-soft px-1.5 text-[11px] font-medium text-warn">staging</span>
              ) : undefined,
          }))}
          onValueChange={(provider) => setSearchParams({ provider }, { replace: true })}
          className="w-56"
          testId="playground-provider"
        />
        <label className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="text-xs font-medium text-muted">
            Hub access token (this hub’s router asks for one; sent only with your calls)
          </span>
          <input
            type="password"
            value={accessToken}
            onChange={(event) => setAccessToken(event.target.value)}
            placeholder="hf_…"
            autoComplete="off"
            spellCheck={false}
            className="h-9 max-w-sm rounded-md border border-line bg-canvas px-3 font-mono text-sm focus:border-accent"
          />
        </label>
      </div>
      {task === "conversational" ? (
        <ChatPlayground key={mapping.provider} modelId={model.id} {...common} />
      ) : MEDIA_TASKS.includes(task) ? (
        <MediaPlayground key={mapping.provider} task={task as MediaTask} modelId={model.id} {...common} />
      ) : (
        <TaskPlayground key={mapping.provider} model={model} task={task} {...common} />
      )}
    </section>
  );
}
