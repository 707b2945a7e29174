import { FAL_AUDIO_CONTENT_TYPES, type InferenceProvider, type InferenceTask } from "@modelhub/inference";
import { findModelInputExample, type ModelData } from "@modelhub/tasks";
import { useMemo, useState } from "react";
import { errorMessage, playgroundClient, simulatedAnswer } from "./playground-client.js";
import { PlaygroundError } from "./playground-error.js";
import { ReadableOutput } from "./readable-output.js";
import { formFields, readField, writeField } from "./request-form.js";
import { RunButton } from "./run-button.js";
import { submitTo, useRun } from "./use-run.js";

interface TaskPlaygroundProps {
  model: ModelData;
  task: string;
  provider: InferenceProvider;
  hubUrl: string;
  accessToken: string;
  /** The signed-in user's CSRF token: without a token, calls go with their session (playground-client.ts). */
  csrfToken?: string;
}

/** The file types a provider takes for a task: fal-ai's speech recognition names its own list. */
export function acceptedFileTypes(provider: string, task: string, exampleType: string): string[] {
  if (provider === "fal-ai" && task === "automatic-speech-recognition") return FAL_AUDIO_CONTENT_TYPES;
  const family = exampleType.split("/")[0];
  return family ? [`${family}/*`] : [];
}

/**
 * Every other task: a form made from its example request (JSON still one click away), or a file for the
 * tasks that take one; the answer shown readably. The reader's input outlives a change of provider.
 */
export function TaskPlayground({
  model,
  task,
  provider,
  hubUrl,
  accessToken,
  csrfToken,
}: TaskPlaygroundProps) {
  const example = useMemo(() => findModelInputExample(model), [model]);
  const initial = useMemo(
    () =>
      example?.kind === "json"
        ? { inputs: example.inputs, ...(example.parameters ? { parameters: example.parameters } : {}) }
        : { inputs: "" },
    [example],
  );
  const takesFile = example?.kind === "file";
  const [request, setRequest] = useState<Record<string, unknown>>(initial);
  const [json, setJson] = useState<string>();
  const [file, setFile] = useState<File>();
  const [output, setOutput] = useState<{ value: unknown; simulated: boolean }>();
  const { running, error, run, stop, setError } = useRun();
  const fields = formFields(request);
  const accepted = acceptedFileTypes(provider, task, example?.kind === "file" ? example.contentType : "");

  const compute = async () => {
    setOutput(undefined);
    let args: Record<string, unknown> = request;
    if (takesFile) {
      if (!file) return setError("Choose a file first.");
      if (provider === "fal-ai" && task === "automatic-speech-recognition" && !accepted.includes(file.type)) {
        return setError(
          `fal-ai takes ${accepted.join(", ")}; this file is ${file.type || "of an unknown type"}.`,
        );
      }
      args = {
        inputs: file,
        ...(example?.kind === "file" && example.parameters ? { parameters: example.parameters } : {}),
      };
    } else if (json !== undefined) {
      try {
        args = JSON.parse(json) as Record<string, unknown>;
      } catch (caught) {
        return setError(`The request is not valid JSON: ${errorMessage(caught)}`);
      }
    }
    await run(async (signal) => {
      let simulated = false;
      const client = playgroundClient(hubUrl, accessToken, csrfToken, (response) => {
        simulated ||= simulatedAnswer(response);
      });
      const value = await client.request(
        { ...args, model: model.id, provider, task: task as InferenceTask },
        { signal },
      );
      setOutput({ value, simulated });
    });
  };

  const toggleJson = () => {
    if (json === undefined) return setJson(JSON.stringify(request, null, 2));
    try {
      setRequest(JSON.parse(json) as Record<string, unknown>);
      setJson(undefined);
    } catch (caught) {
      setError(`The request is not valid JSON: ${errorMessage(caught)}`);
    }
  };

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <form className="flex flex-col gap-3" onSubmit={submitTo(compute)}>
        {takesFile ? (
          <label className="flex flex-col gap-1 text-sm">
            <span className="text-xs font-medium text-muted">
              Input file ({provider === "fal-ai" ? `${provider} accepts ` : "any "}
              {accepted.join(", ")})
            </span>
            <input
              type="file"
              accept={accepted.join(",")}
              onChange={(event) => setFile(event.target.files?.[0])}
              className="min-w-0 text-sm"
            />
            {file ? <span className="text-xs text-muted">Chosen: {file.name}</span> : null}
          </label>
        ) : json === undefined && fields.length > 0 ? (
          fields.map((field) => (
            <label key={field.path.join(".")} className="flex flex-col gap-1">
              <span className="text-xs font-medium text-muted">{field.label}</span>
              <textarea
                value={readField(request, field)}
                onChange={(event) => setRequest(writeField(request, field, event.target.value))}
                rows={field.kind === "list" ? 1 : 3}
                className="min-w-0 rounded-md border border-line bg-surface p-2 text-sm focus:border-accent"
              />
            </label>
          ))
        ) : (
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-muted">Request (JSON)</span>
            <textarea
              value={json ?? JSON.stringify(request, null, 2)}
              onChange={(event) => setJson(event.target.value)}
              rows={8}
              spellCheck={false}
              className="min-w-0 rounded-md border border-line bg-surface p-2 font-mono text-[13px] focus:border-accent"
            />
          </label>
        )}
        <div className="flex flex-wrap gap-2">
          <RunButton running={running} onStop={stop} label="Compute" />
          {!takesFile && fields.length > 0 ? (
            <button
              type="button"
              onClick={toggleJson}
              className="h-10 rounded-md border border-line px-3 text-sm font-medium text-muted hover:text-ink"
            >
              {json === undefined ? "Edit as JSON" : "Back to the form"}
            </button>
          ) : null}
        </div>
      </form>
      <p aria-live="polite" className="text-sm text-muted">
        {running ? "Running…" : ""}
      </p>
      <PlaygroundError message={error} />
      {output ? <ReadableOutput value={output.value} simulated={output.simulated} /> : null}
    </div>
  );
}
