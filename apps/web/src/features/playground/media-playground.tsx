import type { InferenceProvider } from "@modelhub/inference";
import { useEffect, useState } from "react";
import { playgroundClient } from "./playground-client.js";
import { PlaygroundError } from "./playground-error.js";
import { RunButton } from "./run-button.js";
import { SimulatorBadge } from "./simulator-badge.js";
import { submitTo, useRun } from "./use-run.js";

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
  /** The signed-in user's CSRF token: without a token, calls go with their session (playground-client.ts). */
  csrfToken?: string;
}

/** A prompt in, a picture, a sound or a video out, shown the way the browser plays it. */
export function MediaPlayground({
  task,
  modelId,
  provider,
  hubUrl,
  accessToken,
  csrfToken,
}: MediaPlaygroundProps) {
  const [prompt, setPrompt] = useState(DEFAULT_PROMPTS[task]);
  const [result, setResult] = useState<{ url: string; blob: Blob; prompt: string }>();
  const { running, error, run, stop } = useRun();

  // Object URLs hold the blob in memory until revoked.
  useEffect(() => () => (result ? URL.revokeObjectURL(result.url) : undefined), [result]);

  const generate = () =>
    run(async (signal) => {
      const client = playgroundClient(hubUrl, accessToken, csrfToken);
      const args = { model: modelId, provider, inputs: prompt };
      const options = { signal };
      let blob: Blob;
      if (task === "text-to-image") blob = await client.textToImage(args, { ...options, outputType: "blob" });
      else if (task === "text-to-speech") blob = await client.textToSpeech(args, options);
      else if (task === "text-to-audio") blob = await client.textToAudio(args, options);
      else blob = await client.textToVideo(args, options);
      setResult({ url: URL.createObjectURL(blob), blob, prompt });
    });

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <form className="flex flex-col gap-2 sm:flex-row" onSubmit={submitTo(generate)}>
        <input
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
          aria-label="Prompt"
          className="h-10 min-w-0 flex-1 rounded-md border border-line bg-surface px-3 text-sm focus:border-accent"
        />
        <RunButton running={running} onStop={stop} label="Generate" />
      </form>
      <p aria-live="polite" className="text-sm text-muted">
        {running ? "Generating…" : ""}
      </p>
      <PlaygroundError message={error} />
      {result ? (
        <figure className="flex min-w-0 flex-col gap-2">
          <SimulatorBadge blob={result.blob} />
          {task === "text-to-image" ? (
            <img
              src={result.url}
              alt={`Generated from the prompt: ${result.prompt}`}
              className="h-auto max-h-[32rem] w-full max-w-lg rounded-lg border border-line object-contain"
              data-testid="generated-image"
            />
          ) : task === "text-to-video" ? (
            // biome-ignore lint/a11y/useMediaCaption: generated video has no caption track.
            <video
              controls
              src={result.url}
              aria-label="Generated video"
              className="h-auto max-h-[32rem] w-full max-w-lg rounded-lg"
              data-testid="generated-video"
            />
          ) : (
            // biome-ignore lint/a11y/useMediaCaption: generated audio has no caption track.
            <audio controls src={result.url} aria-label="Generated audio" data-testid="generated-audio" />
          )}
        </figure>
      ) : null}
    </div>
  );
}
