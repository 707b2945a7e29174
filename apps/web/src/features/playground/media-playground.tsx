import type { InferenceProvider } from "@modelhub/inference";
import { useEffect, useRef, useState } from "react";
import { errorMessage, isAbort, playgroundClient } from "./playground-client.js";
import { PlaygroundError } from "./playground-error.js";

export type MediaTask = "text-to-image" | "text-to-speech" | "text-to-audio" | "text-to-video";
export const MEDIA_TASKS: readonly string[] = [
  "text-to-image",
  "text-to-speech",
  "text-to-audio",
  "text-to-video",
];

const DEFAULT_PROMPTS: Record<MediaTask, string> = {
  "text-to-image": "Astronaut riding a horse",
  "text-to-speech": "The answer to the universe is 42",
  "text-to-audio": "liquid drum and bass, atmospheric synths, airy sounds",
  "text-to-video": "A young man walking on the street",
};

interface MediaPlaygroundProps {
  task: MediaTask;
  modelId: string;
  provider: InferenceProvider;
  hubUrl: string;
  accessToken: string;
}

/** A prompt in, a picture, a sound or a video out, shown the way the browser plays it. */
export function MediaPlayground({ task, modelId, provider, hubUrl, accessToken }: MediaPlaygroundProps) {
  const [prompt, setPrompt] = useState(DEFAULT_PROMPTS[task]);
  const [result, setResult] = useState<{ url: string; type: string }>();
  const [error, setError] = useState<string>();
  const [running, setRunning] = useState(false);
  const controller = useRef<AbortController | null>(null);

  // Object URLs hold the blob in memory until revoked.
  useEffect(() => () => (result ? URL.revokeObjectURL(result.url) : undefined), [result]);

  const run = async () => {
    setRunning(true);
    setError(undefined);
    const abort = new AbortController();
    controller.current = abort;
    try {
      const client = playgroundClient(hubUrl, accessToken);
      const args = { model: modelId, provider, inputs: prompt };
      const options = { signal: abort.signal };
      let blob: Blob;
      if (task === "text-to-image") blob = await client.textToImage(args, { ...options, outputType: "blob" });
      else if (task === "text-to-speech") blob = await client.textToSpeech(args, options);
      else if (task === "text-to-audio") blob = await client.textToAudio(args, options);
      else blob = await client.textToVideo(args, options);
      setResult({ url: URL.createObjectURL(blob), type: blob.type });
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
        className="flex flex-col gap-2 sm:flex-row"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <input
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
          aria-label="Prompt"
          className="h-10 flex-1 rounded-md border border-line bg-surface px-3 text-sm focus:border-accent"
        />
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
            Generate
          </button>
        )}
      </form>
      <p aria-live="polite" className="text-sm text-muted">
        {running ? "Generating…" : ""}
      </p>
      <PlaygroundError message={error} />
      {result && task === "text-to-image" ? (
        <img
          src={result.url}
          alt={`Generated from the prompt: ${prompt}`}
          className="max-h-[32rem] min-h-48 min-w-48 w-fit rounded-lg border border-line object-contain [image-rendering:pixelated]"
          data-testid="generated-image"
        />
      ) : null}
      {result && (task === "text-to-speech" || task === "text-to-audio") ? (
        // biome-ignore lint/a11y/useMediaCaption: generated audio has no caption track.
        <audio controls src={result.url} aria-label="Generated audio" data-testid="generated-audio" />
      ) : null}
      {result && task === "text-to-video" ? (
        // biome-ignore lint/a11y/useMediaCaption: generated video has no caption track.
        <video controls src={result.url} aria-label="Generated video" className="max-h-[32rem] rounded-lg" />
      ) : null}
    </div>
  );
}
