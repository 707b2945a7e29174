import type { DemoCopyInfo } from "../../lib/api/demo-copy.js";

/**
 * In place of loading code that cannot work: the repository holds no weight files, so `from_pretrained` (or
 * any library's loader) would fail. Says what is missing and where the weights are, when that is known.
 */
export function MissingWeights({
  modelId,
  label,
  demoCopy,
  hasRepository,
}: {
  modelId: string;
  label: string;
  demoCopy: DemoCopyInfo | undefined;
  hasRepository: boolean;
}) {
  return (
    <div
      role="status"
      data-testid="missing-weights"
      className="rounded-md bg-warn-soft p-3 text-sm text-warn"
    >
      <p className="font-medium">No weights to load here.</p>
      <p>
        {hasRepository
          ? `${modelId} holds no weight files (no .safetensors, .bin, .onnx, or GGUF file with tensors), so ${label} cannot load it from this hub.`
          : `${modelId} is a catalogue entry without a repository on this hub: there are no files to load.`}{" "}
        {demoCopy ? (
          <>
            It is a demo copy: the weights are on{" "}
            <a href={demoCopy.original} className="underline" rel="noopener noreferrer">
              the original model's page
            </a>
            .
          </>
        ) : hasRepository ? (
          "Upload them to this repository, then its loading code appears here."
        ) : null}
      </p>
    </div>
  );
}
