import { sqlIdentifier, sqlString } from "./viewer-engine.js";
import type { Feature } from "./viewer-records.js";
import type { ColumnStatistics, NumericalStatistics } from "./viewer-statistics-shapes.js";

/**
 * Per-column statistics of a split, as the public viewer's `/statistics` computes them
 * (dataset-viewer's statistics_utils.py): integers and floats (min, max, mean, median, sample standard
 * deviation, nulls and NaNs, a 10-bin histogram), strings (category counts when few distinct values, else
 * the same numbers over their lengths), booleans (counts), lists (the numbers over their lengths). Computed by
 * the engine once, when a split is converted, and stored with the conversion: a request only reads them.
 */

const DECIMALS = 5;
const NUM_BINS = 10;
/** A string column is categories when distinct values are at most 20% of rows and 1,000, or at most 10. */
const MAX_PROPORTION_STRING_LABELS = 0.2;
const MAX_NUM_STRING_LABELS = 1000;

/** Runs a query over the split's Parquet files; rows as JSON objects. */
export type Inspect = (sql: string) => Promise<Record<string, unknown>[]>;

const round = (value: number) => Math.round(value * 10 ** DECIMALS) / 10 ** DECIMALS;
const proportion = (count: number, total: number) => (count === 0 || total === 0 ? 0 : round(count / total));
const INT_DTYPES = new Set(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]);
const FLOAT_DTYPES = new Set(["float16", "float32", "float64"]);

/** Which statistics a feature gets, or none (structs, binaries, dates: not computed, as there). */
function kindOf(feature: Feature): "int" | "float" | "bool" | "string" | "list" | "datetime" | undefined {
  if (feature._type === "List" || feature._type === "Sequence") return "list";
  if (feature._type !== "Value" || typeof feature.dtype !== "string") return undefined;
  if (INT_DTYPES.has(feature.dtype)) return "int";
  if (FLOAT_DTYPES.has(feature.dtype)) return "float";
  if (feature.dtype === "bool") return "bool";
  if (feature.dtype.startsWith("timestamp[") || feature.dtype === "date32") return "datetime";
  if (feature.dtype === "string" || feature.dtype === "large_string") return "string";
  return undefined;
}

/**
 * The bin edges of the public viewer: floats in 10 equal bins from min (edges rounded in the answer);
 * integers in bins of a whole width ceil((max - min + 1) / 10), so sometimes fewer; always ending at max.
 */
export function binEdges(min: number, max: number, type: "int" | "float"): number[] {
  const edges: number[] = [];
  if (type === "float") {
    if (min === max) edges.push(min);
    else for (let index = 0; index < NUM_BINS; index++) edges.push(min + (index * (max - min)) / NUM_BINS);
  } else {
    const size = Math.ceil((max - min + 1) / NUM_BINS);
    for (let edge = min; edge < max + 1; edge += size) edges.push(edge);
  }
  return [...edges, max];
}

/** An instant as the public viewer prints it (strftime "%Y-%m-%d %H:%M:%S%z"; UTC for zoned columns). */
export function dateText(epochSeconds: number, zoned: boolean): string {
  const iso = new Date(Math.round(epochSeconds * 1000)).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${zoned ? "+0000" : ""}`;
}

/** A duration in seconds as Python's str(datetime.timedelta(seconds=...)). */
export function timedeltaText(totalSeconds: number): string {
  const micros = Math.round(totalSeconds * 1e6);
  const days = Math.floor(micros / 86_400e6);
  let rest = micros - days * 86_400e6;
  const hours = Math.floor(rest / 3_600e6);
  rest -= hours * 3_600e6;
  const minutes = Math.floor(rest / 60e6);
  rest -= minutes * 60e6;
  const secs = Math.floor(rest / 1e6);
  const fraction = rest - secs * 1e6;
  const clock = `${hours}:${String(minutes).padStart(2, "0")}:${String(secs).padStart(2, "0")}${
    fraction ? `.${String(fraction).padStart(6, "0")}` : ""
  }`;
  return days ? `${days} day${Math.abs(days) === 1 ? "" : "s"}, ${clock}` : clock;
}

/** Numbers over `valueSql` (a numeric expression of each row, null where missing) of `source`. */
async function numerical(
  inspect: Inspect,
  source: string,
  valueSql: string,
  type: "int" | "float",
  numRows: number,
): Promise<NumericalStatistics> {
  const values = `SELECT ${valueSql} AS v FROM ${source}`;
  const [row] = await inspect(
    `SELECT count(*) FILTER (WHERE v IS NULL) AS nan_count, min(v)::DOUBLE AS min, max(v)::DOUBLE AS max,
       avg(v)::DOUBLE AS mean, quantile_cont(v, 0.5)::DOUBLE AS median, stddev_samp(v)::DOUBLE AS std
     FROM (${values})`,
  );
  const nanCount = Number(row!.nan_count);
  const none = { min: null, max: null, mean: null, median: null, std: null, histogram: null };
  if (nanCount === numRows || row!.min === null) {
    return { nan_count: nanCount, nan_proportion: proportion(nanCount, numRows), ...none };
  }
  const rounded = (key: string) => (row![key] === null ? null : round(Number(row![key])));
  let min = rounded("min")!;
  let max = rounded("max")!;
  if (type === "int") {
    min = Math.trunc(min);
    max = Math.trunc(max);
  }
  const edges = binEdges(min, max, type);
  const bins = edges.length - 1;
  // Each value in the last bin whose lower edge it reaches: [edge, next) and the last bin closed at max.
  const binOf =
    bins <= 1
      ? "0"
      : `CASE ${edges
          .slice(1, -1)
          .map((edge, index) => ({ edge, bin: index + 1 }))
          .reverse()
          .map(({ edge, bin }) => `WHEN v >= ${edge} THEN ${bin}`)
          .join(" ")} ELSE 0 END`;
  const counts = await inspect(
    `SELECT ${binOf} AS bin, count(*) AS n FROM (${values}) WHERE v IS NOT NULL GROUP BY bin`,
  );
  const hist = new Array<number>(bins).fill(0);
  for (const count of counts) hist[Number(count.bin)] = Number(count.n);
  return {
    nan_count: nanCount,
    nan_proportion: proportion(nanCount, numRows),
    min,
    max,
    mean: rounded("mean"),
    median: rounded("median"),
    std: rounded("std"),
    histogram: { hist, bin_edges: type === "float" ? edges.map(round) : edges },
  };
}

async function column(
  inspect: Inspect,
  source: string,
  name: string,
  feature: Feature,
  numRows: number,
): Promise<ColumnStatistics | undefined> {
  const kind = kindOf(feature);
  const c = sqlIdentifier(name);
  switch (kind) {
    case undefined:
      return undefined;
    case "int":
      return {
        column_name: name,
        column_type: "int",
        column_statistics: await numerical(inspect, source, c, "int", numRows),
      };
    case "float":
      return {
        column_name: name,
        column_type: "float",
        column_statistics: await numerical(
          inspect,
          source,
          `CASE WHEN isnan(${c}) THEN NULL ELSE ${c} END`,
          "float",
          numRows,
        ),
      };
    case "datetime": {
      const zoned = "dtype" in feature && String(feature.dtype).includes("tz=");
      const [first] = await inspect(`SELECT epoch(min(${c}))::DOUBLE AS min FROM ${source}`);
      const minSeconds = first!.min === null ? 0 : Math.floor(Number(first!.min));
      // Whole seconds after the earliest instant, as the public viewer's total_seconds, then shown as dates.
      const seconds = await numerical(
        inspect,
        source,
        `(floor(epoch(${c})) - ${minSeconds})::BIGINT`,
        "int",
        numRows,
      );
      const at = (offset: number | null) => (offset === null ? null : dateText(minSeconds + offset, zoned));
      return {
        column_name: name,
        column_type: "datetime",
        column_statistics: {
          nan_count: seconds.nan_count,
          nan_proportion: seconds.nan_proportion,
          min: at(seconds.min),
          max: at(seconds.max),
          mean: at(seconds.mean),
          median: at(seconds.median),
          std: seconds.std === null ? null : timedeltaText(seconds.std),
          histogram: seconds.histogram && {
            hist: seconds.histogram.hist,
            bin_edges: seconds.histogram.bin_edges.map((edge) => at(edge)!),
          },
        },
      };
    }
    case "list": {
      const stats = await numerical(inspect, source, `len(${c})`, "int", numRows);
      return { column_name: name, column_type: "list", column_statistics: stats };
    }
    case "bool": {
      const counts = await inspect(`SELECT ${c} AS value, count(*) AS n FROM ${source} GROUP BY ${c}`);
      const nanCount = Number(counts.find((count) => count.value === null)?.n ?? 0);
      const frequencies: Record<string, number> = {};
      for (const value of [false, true]) {
        const found = counts.find((count) => count.value === value);
        if (found) frequencies[value ? "True" : "False"] = Number(found.n);
      }
      return {
        column_name: name,
        column_type: "bool",
        column_statistics: {
          nan_count: nanCount,
          nan_proportion: proportion(nanCount, numRows),
          frequencies,
        },
      };
    }
    case "string": {
      const [row] = await inspect(
        `SELECT count(*) FILTER (WHERE ${c} IS NULL) AS nan_count, count(DISTINCT ${c}) AS distinct FROM ${source}`,
      );
      const nanCount = Number(row!.nan_count);
      // Distinct values as polars counts them: a null is one more.
      const unique = Number(row!.distinct) + (nanCount > 0 ? 1 : 0);
      const isClass =
        (numRows > 0 &&
          unique / numRows <= MAX_PROPORTION_STRING_LABELS &&
          unique <= MAX_NUM_STRING_LABELS) ||
        unique <= NUM_BINS;
      if (isClass) {
        const counts = await inspect(
          `SELECT ${c} AS value, count(*) AS n FROM ${source} WHERE ${c} IS NOT NULL
           GROUP BY ${c} ORDER BY n DESC, value`,
        );
        const frequencies = Object.fromEntries(counts.map((count) => [String(count.value), Number(count.n)]));
        return {
          column_name: name,
          column_type: "string_label",
          column_statistics: {
            nan_count: nanCount,
            nan_proportion: proportion(nanCount, numRows),
            no_label_count: 0,
            no_label_proportion: 0,
            n_unique: counts.length,
            frequencies,
          },
        };
      }
      return {
        column_name: name,
        column_type: "string_text",
        column_statistics: await numerical(inspect, source, `length(${c})`, "int", numRows),
      };
    }
  }
}

/** Statistics of every supported column of a split's Parquet files, by column name as the public viewer. */
export async function splitStatistics(
  inspect: Inspect,
  parquetPaths: readonly string[],
  features: readonly { name: string; type: Feature }[],
  numRows: number,
): Promise<ColumnStatistics[]> {
  if (parquetPaths.length === 0) return [];
  const source = `read_parquet([${parquetPaths.map(sqlString).join(", ")}])`;
  const statistics: ColumnStatistics[] = [];
  for (const feature of features) {
    const found = await column(inspect, source, feature.name, feature.type, numRows);
    if (found) statistics.push(found);
  }
  return statistics.sort((a, b) =>
    a.column_name < b.column_name ? -1 : a.column_name > b.column_name ? 1 : 0,
  );
}
