import type { ColumnStatistics, FeatureType } from "../../lib/api/dataset-viewer.js";

/** A column's type in a few characters: `int64`, `list<string>`, `struct`. */
export function typeLabel(type: FeatureType): string {
  if (type._type === "Value" && type.dtype) return type.dtype;
  if (type._type === "List" && type.feature) return `list<${typeLabel(type.feature)}>`;
  if (type._type === "Image") return "image";
  if (type._type === "Audio") return "audio";
  return type._type ? type._type.toLowerCase() : "struct";
}

/** Bar heights (0-1) of a column's distribution: its histogram, or its most frequent categories. */
function bars(statistics: ColumnStatistics["column_statistics"]): { heights: number[]; summary: string } {
  if (statistics.histogram?.hist.length) {
    const max = Math.max(...statistics.histogram.hist, 1);
    const edges = statistics.histogram.bin_edges;
    return {
      heights: statistics.histogram.hist.map((count) => count / max),
      summary: `from ${edges[0]} to ${edges[edges.length - 1]}`,
    };
  }
  const frequencies = Object.entries(statistics.frequencies ?? {}).sort((a, b) => b[1] - a[1]);
  if (frequencies.length === 0) return { heights: [], summary: "" };
  const max = frequencies[0]![1] || 1;
  const unique = statistics.n_unique ?? frequencies.length;
  return {
    heights: frequencies.slice(0, 10).map(([, count]) => count / max),
    summary: `${unique} ${unique === 1 ? "value" : "values"}, most often ${frequencies[0]![0]}`,
  };
}

/** A header cell: name, type, and a small distribution (histogram or category counts) with the null share. */
export function ColumnHeader({
  name,
  type,
  statistics,
}: {
  name: string;
  type: FeatureType;
  statistics: ColumnStatistics | undefined;
}) {
  const shape = statistics ? bars(statistics.column_statistics) : undefined;
  const nulls = statistics?.column_statistics.nan_proportion;
  return (
    <div className="flex min-w-32 flex-col gap-0.5">
      <span className="font-semibold text-ink">{name}</span>
      <span className="font-mono text-xs font-normal text-muted">{typeLabel(type)}</span>
      {shape && shape.heights.length > 0 ? (
        <svg
          role="img"
          aria-label={`Distribution of ${name}: ${shape.summary}`}
          viewBox={`0 0 ${shape.heights.length * 6} 20`}
          className="h-5 w-24 text-accent"
          preserveAspectRatio="none"
        >
          {shape.heights.map((height, index) => (
            <rect
              // The bars are positional: their order is the histogram's.
              // biome-ignore lint/suspicious/noArrayIndexKey: bins have no identity but their place
              key={index}
              x={index * 6}
              y={20 - Math.max(1, height * 20)}
              width={5}
              height={Math.max(1, height * 20)}
              fill="currentColor"
            />
          ))}
        </svg>
      ) : null}
      {nulls !== undefined && nulls > 0 ? (
        <span className="text-xs font-normal text-muted">{`${(nulls * 100).toFixed(1)}% null`}</span>
      ) : null}
    </div>
  );
}
