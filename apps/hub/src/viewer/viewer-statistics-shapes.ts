/**
 * The answer shapes of `/statistics`, as the public viewer's statistics_utils.py writes them. Apart from
 * viewer-statistics.ts (which computes them) so that the stored conversion records can name them without
 * importing the engine.
 */

export type ColumnType = "int" | "float" | "bool" | "list" | "string_label" | "string_text" | "datetime";

export interface Histogram {
  hist: number[];
  bin_edges: number[];
}

export interface NumericalStatistics {
  nan_count: number;
  nan_proportion: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  median: number | null;
  std: number | null;
  histogram: Histogram | null;
}

export interface CategoricalStatistics {
  nan_count: number;
  nan_proportion: number;
  no_label_count: number;
  no_label_proportion: number;
  n_unique: number;
  frequencies: Record<string, number>;
}

export interface BoolStatistics {
  nan_count: number;
  nan_proportion: number;
  frequencies: Record<string, number>;
}

export interface DatetimeStatistics {
  nan_count: number;
  nan_proportion: number;
  min: string | null;
  max: string | null;
  mean: string | null;
  median: string | null;
  /** A duration as Python's str(timedelta): "1 day, 2:03:04.500000". */
  std: string | null;
  histogram: { hist: number[]; bin_edges: string[] } | null;
}

export interface ColumnStatistics {
  column_name: string;
  column_type: ColumnType;
  column_statistics: NumericalStatistics | CategoricalStatistics | BoolStatistics | DatetimeStatistics;
}
