import { memo } from "react";
import type { FileDiff } from "../../lib/api/compare.js";
import { formatBytes } from "../../lib/format.js";

/** Lines of one file's patch shown at most; a huge diff must not freeze the page. */
const MAX_PATCH_LINES = 3000;

const LINE_CLASS: Record<string, string> = {
  "+": "bg-[color-mix(in_srgb,var(--color-ok)_14%,transparent)]",
  "-": "bg-[color-mix(in_srgb,var(--color-danger)_14%,transparent)]",
  "@": "text-muted bg-raised",
};

/** The changed files of a comparison, each with its unified diff (or why none is shown). */
export const DiffView = memo(function DiffView({ files }: { files: FileDiff[] }) {
  return (
    <ul className="flex flex-col gap-4" data-testid="diff">
      {files.map((file) => (
        <li key={file.path} className="overflow-hidden rounded-lg border border-line">
          <h3 className="flex flex-wrap items-center gap-2 border-b border-line bg-raised px-3 py-2 text-sm">
            <span className="rounded bg-surface px-1.5 text-xs font-medium text-muted">{file.status}</span>
            <span className="min-w-0 font-mono break-all">{file.path}</span>
            <span className="ml-auto text-xs">
              <span className="text-ok">+{file.additions}</span>{" "}
              <span className="text-danger">−{file.deletions}</span>
            </span>
          </h3>
          <FilePatch file={file} />
        </li>
      ))}
    </ul>
  );
});

function FilePatch({ file }: { file: FileDiff }) {
  const size = file.newSize ?? file.oldSize;
  const sizeText = size !== undefined ? ` (${formatBytes(size)})` : "";
  // An LFS file's diff is its pointer: say what it is, then show the pointer change when there is one.
  const note = file.lfs ? (
    <p className="px-3 py-2 text-sm text-muted">Stored with Git LFS{sizeText}.</p>
  ) : null;
  if (!file.patch) {
    return (
      note ?? (
        <p className="px-3 py-3 text-sm text-muted">
          {file.binary ? "Binary file" : "Diff too large to show"}
          {sizeText}.
        </p>
      )
    );
  }
  const lines = file.patch.split("\n");
  const shown = lines.slice(0, MAX_PATCH_LINES);
  return (
    <>
      {note}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard. */}
      {/* biome-ignore lint/a11y/useSemanticElements: a div region is what wraps a scrolling block. */}
      <div role="region" aria-label={`Diff of ${file.path}`} tabIndex={0} className="overflow-x-auto">
        <pre className="font-mono text-[12.5px] leading-5">
          {shown.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed patch, never reordered.
            <div key={index} className={`px-3 ${LINE_CLASS[line[0] ?? ""] ?? ""}`}>
              {line || " "}
            </div>
          ))}
        </pre>
      </div>
      {lines.length > MAX_PATCH_LINES ? (
        <p className="border-t border-line px-3 py-2 text-sm text-muted">
          {(lines.length - MAX_PATCH_LINES).toLocaleString("en")} more lines not shown.
        </p>
      ) : null}
    </>
  );
}
