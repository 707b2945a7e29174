import type { DemoCopyInfo } from "../../lib/api/demo-copy.js";
import { formatCount } from "../../lib/format.js";

/**
 * What a demo copy is, on its page: a copy without weights, the original on huggingface.co, and the figures
 * counted there, labelled with where they were counted (the header's counts are this hub's own).
 */
export function DemoCopyNote({ demoCopy }: { demoCopy: DemoCopyInfo }) {
  const figures = demoCopy.sourceFigures;
  return (
    <p data-testid="demo-copy-note" className="text-sm text-muted">
      Demo copy without weights of{" "}
      <a href={demoCopy.original} className="text-accent underline" rel="noopener noreferrer">
        the original model
      </a>
      {figures ? (
        <span data-testid="source-figures">
          {" "}
          · on {figures.source}: {formatCount(figures.downloads)} downloads, {formatCount(figures.likes)}{" "}
          likes
        </span>
      ) : null}
    </p>
  );
}
