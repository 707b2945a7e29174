import type { ColumnStatistics } from "./viewer-statistics-shapes.js";

/** How a split's full-text index reduces words (viewer-fulltext.ts): English stemming, or none. */
export type Stemmer = "porter" | "none";

/** A `datasets` feature type, as the public viewer answers it (`{"dtype": "int64", "_type": "Value"}`...). */
export type Feature =
  | { _type: "Value"; dtype: string }
  | { _type: "List"; feature: Feature }
  | { _type: "Sequence"; feature: Feature }
  | { [field: string]: Feature };

/** One converted split: its Parquet files on `refs/convert/parquet` and what they hold. */
export interface ConvertedSplit {
  config: string;
  split: string;
  /** Columns in order, with their feature types. */
  features: { name: string; type: Feature }[];
  numRows: number;
  /** Bytes of the original files of the split, and of its Parquet files. */
  originalBytes: number;
  parquetBytes: number;
  /** Only the first part of the split was converted (it is larger than the conversion limit). */
  partial: boolean;
  files: { path: string; sha256: string; size: number; numRows: number }[];
  /** Per-column statistics computed at conversion (absent in conversions made before they were). */
  statistics?: ColumnStatistics[];
  /**
   * The stemmer of the split's full-text index, from the dataset card's language (absent in conversions made
   * before the index existed: it is then read from the README of the converted commit).
   */
  stemmer?: Stemmer;
  /**
   * The split's image and audio cells name files of the repository at the converted commit (an image or
   * audio folder), which the viewer's rows link to; otherwise their bytes are only in the Parquet files.
   */
  mediaInRepository?: boolean;
}

/** What converting one commit of a dataset produced. */
export interface ConversionResult {
  splits: ConvertedSplit[];
  /** The commit of `refs/convert/parquet` that holds the Parquet files. */
  parquetCommit: string;
  /** The commit of main that was converted. */
  sourceCommit: string;
}
