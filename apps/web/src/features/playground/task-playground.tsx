import type { InferenceProvider, InferenceTask } from "@modelhub/inference";
import { findModelInputExample, type ModelData } from "@modelhub/tasks";
import { useMemo, useRef, useState } from "react";
import { errorMessage, isAbort, playgroundClient } from "./playground-client.js";
import { PlaygroundError } from "./playground-error.js";
import { ReadableOutput } from "./readable-output.js";

interface TaskPlaygroundProps {
  model: ModelData;
  task: string;
  provider: InferenceProvider;
  hubUrl: string;
  accessToken: string;
}

/**
 * Every other task: its example request as editable JSON (or a file to upload for tasks that take one),
 * sent through the client, the answer shown readably.
 */
export function TaskPlayground({ model, task, provider, hubUrl, accessToken }: TaskPlaygroundProps) {
  const example = useMemo(() => findModelInputExample(model), [model]);
  const initial = useMemo(() => {
    if (example?.kind === "json") {
      return JSON.stringify(
        { inputs: example.inputs, ...(example.parameters ? { parameters: example.parameters } : {}) },
        null,
        2,
      );
    }
    return JSON.stringify({ inputs: "" }, null, 2);
  }, [example]);
  const takesFile = example?.kind === "file";
  const [body, setBody] = useState(initial);
  const [file, setFile] = useState<File>();
  const [output, setOutput] = useState<{ value: unknown }>();
  const [error, setError] = useState<string>();
  const [running, setRunning] = useState(false);
  const controller = useRef<AbortController | null>(null);

  const run = async () => {
    setError(undefined);
    setOutput(undefined);
    let args: Record<string, unknown>;
    if (takesFile) {
      if (!file) {
        setError("Choose a file first.");
        return;
      }
      args = {
        inputs: file,
        ...(example?.kind === "file" && example.parameters ? { parameters: example.parameters } : {}),
      };
    } else {
      try {
        args = JSON.parse(body) as Record<string, unknown>;
      } catch (caught) {
        setError(`The request is not valid JSON: ${errorMessage(caught)}`);
        return;
      }
    }
    setRunning(true);
    const abort = new AbortController();
    controller.current = abort;
    try {
      const client = playgroundClient(hubUrl, accessToken);
      const value = await client.request(
        { ...args, model: model.id, provider, task: task as InferenceTask },
        { signal: abort.signal },
      );
      setOutput({ value });
    } catch (caught) {
      if (!isAbort(caught)) setError(errorMessage(caught));
    } finally {
      controller.current = null;
      setRunning(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <form
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        {takesFile ? (
          <label className="flex flex-col gap-1 text-sm">
            <span className="text-xs font-medium text-muted">
              Input file ({example?.kind === "file" ? example.contentType : "any"})
            </span>
            <input type="file" onChange={(event) => setFile(event.target.files?.[0])} className="text-sm" />
          </label>
        ) : (
          <label className="flex flex-col gap-1">
            <span className="text-xs font-medium text-muted">Request (JSON)</span>
            <textarea
              value={body}
              onChange={(event) => setBody(event.target.value)}
              rows={8}
              spellCheck={false}
              className="rounded-md border border-line bg-surface p-2 font-mono text-[13px] focus:border-accent"
            />
          </label>
        )}
        <div className="flex gap-2">
          {running ? (
            <button
              type="button"
              onClick={() => controller.current?.abort()}
              className="h-10 rounded-md border border-danger px-4 text-sm font-medium text-danger"
            >
              Stop
            </button>
          ) : (
            <button
              type="submit"
              className="h-10 rounded-md bg-accent px-4 text-sm font-medium text-accent-ink"
            >
              Compute
            </button>
          )}
        </div>
      </form>
      <p aria-live="polite" className="text-sm text-muted">
        {running ? "Running…" : ""}
      </p>
      <PlaygroundError message={error} />
      {output ? <ReadableOutput value={output.value} /> : null}
    </div>
  );
}
