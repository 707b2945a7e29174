import { useEffect, useState } from "react";
import { CodeBlock } from "../../components/ui/code-block.js";
import { SimulatorBadge, SimulatorLabel } from "./simulator-badge.js";

interface LabelScore {
  label: string;
  score: number;
}

function isLabelScores(value: unknown): value is LabelScore[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((entry) => entry && typeof entry.label === "string" && typeof entry.score === "number")
  );
}

function BlobOutput({ blob }: { blob: Blob }) {
  const [url] = useState(() => URL.createObjectURL(blob));
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const media = blob.type.startsWith("image/") ? (
    <img src={url} alt="Result" className="h-auto max-h-[32rem] w-full max-w-lg rounded-lg object-contain" />
  ) : blob.type.startsWith("audio/") ? (
    // biome-ignore lint/a11y/useMediaCaption: generated audio has no caption track.
    <audio controls src={url} aria-label="Result audio" />
  ) : blob.type.startsWith("video/") ? (
    // biome-ignore lint/a11y/useMediaCaption: generated video has no caption track.
    <video controls src={url} aria-label="Result video" className="h-auto max-h-[32rem] w-full max-w-lg" />
  ) : undefined;
  if (media) {
    return (
      <figure className="flex min-w-0 flex-col gap-2">
        <SimulatorBadge blob={blob} />
        {media}
      </figure>
    );
  }
  return (
    <a href={url} download="result" className="text-accent underline">
      Download the result ({blob.type || "binary"}, {blob.size} bytes)
    </a>
  );
}

/** A transcript or generated text: `{ text }` (speech recognition) or `[{ generated_text }]`. */
function textOf(value: unknown): string | undefined {
  const first = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (!first || typeof first !== "object") return undefined;
  const record = first as Record<string, unknown>;
  const text = record.text ?? record.generated_text ?? record.summary_text ?? record.translation_text;
  return typeof text === "string" ? text : undefined;
}

/**
 * Classification results as bars, media played, text as text, anything else as indented JSON; a result the
 * hub's simulator made is badged (media by the mark in the file, the rest by the answer's header).
 */
export function ReadableOutput({ value, simulated = false }: { value: unknown; simulated?: boolean }) {
  if (value instanceof Blob) return <BlobOutput blob={value} />;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      {simulated ? <SimulatorLabel /> : null}
      <StructuredOutput value={value} />
    </div>
  );
}

function StructuredOutput({ value }: { value: unknown }) {
  const text = textOf(value);
  if (text !== undefined) {
    return (
      <p data-testid="result-text" className="whitespace-pre-wrap rounded-lg bg-raised p-3 text-sm">
        {text}
      </p>
    );
  }
  const flat = Array.isArray(value) && value.length === 1 && isLabelScores(value[0]) ? value[0] : value;
  if (isLabelScores(flat)) {
    return (
      <ul aria-label="Results" className="flex flex-col gap-2">
        {flat.map((entry) => (
          <li key={entry.label} className="flex flex-col gap-1 text-sm">
            <span className="flex justify-between">
              <span>{entry.label}</span>
              <span className="font-mono text-muted">{entry.score.toFixed(3)}</span>
            </span>
            <span className="h-2 rounded-full bg-raised" aria-hidden="true">
              <span
                className="block h-2 rounded-full bg-accent"
                style={{ width: `${Math.max(1, entry.score * 100)}%` }}
              />
            </span>
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === "string")
    return <p className="whitespace-pre-wrap rounded-lg bg-raised p-3 text-sm">{value}</p>;
  return <CodeBlock code={JSON.stringify(value, null, 2)} label="Result" language="js" />;
}
