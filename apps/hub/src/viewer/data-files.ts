import { parse as parseYaml } from "yaml";

/**
 * Which configs and splits a dataset repository holds, found as the `datasets` library finds them
 * (datasets/data_files.py): the README's YAML `configs:` with their `data_files` when there are any; otherwise
 * one `default` config whose splits come from the file layout: `data/{split}-00000-of-00001.*` shards, then
 * train/validation/test keywords in folder names, then in file names, and else every file is `train`.
 */

export type DataFormat =
  | "csv"
  | "tsv"
  | "json"
  | "parquet"
  | "arrow"
  | "text"
  | "imagefolder"
  | "audiofolder";

/** The library's folder builders: one row per image or audio file, or per row of the folder's metadata file. */
export const FOLDER_FORMATS: ReadonlySet<DataFormat> = new Set(["imagefolder", "audiofolder"]);

/**
 * The files the image and audio folder builders read, by extension, as the library maps them (where a
 * name is in several lists the later builder wins there: `.mpg` is audio; `.mpeg`, `.mp4`, `.mov`, `.avi`
 * and `.mkv` belong to the video builder, which the viewer does not convert).
 */
const IMAGE_EXTENSIONS =
  `blp bmp dib bufr cur pcx dcx dds ps eps fit fits fli flc ftc ftu gbr gif grib h5 hdf png
  apng jp2 j2k jpc jpf jpx j2c icns ico im iim tif tiff jfif jpe jpg jpeg msp pcd pxr pbm pgm ppm pnm psd bw rgb
  rgba sgi ras tga icb vda vst webp wmf emf xbm xpm`.split(/\s+/);
const AUDIO_EXTENSIONS =
  `aiff au avr caf flac htk svx mat4 mat5 mpc2k ogg paf pvf raw rf64 sd2 sds ircam voc w64
  wav nist wavex wve xi mp3 opus 3gp 3g2 asf flv mpg webm f4v wmv wma ogm mxf nut`.split(/\s+/);

/** A folder's metadata files: each row names its file (`file_name`, or `{column}_file_name`). */
export const METADATA_FILE_NAMES: ReadonlySet<string> = new Set([
  "metadata.csv",
  "metadata.jsonl",
  "metadata.parquet",
]);
export const isMetadataFile = (path: string) =>
  METADATA_FILE_NAMES.has(path.slice(path.lastIndexOf("/") + 1));

export interface SplitFiles {
  split: string;
  /** Repository paths, sorted. */
  paths: string[];
}

export interface ConfigFiles {
  config: string;
  format: DataFormat;
  splits: SplitFiles[];
}

/** Thrown when the README's `configs:` cannot be used: the conversion records this reason. */
export class DataFilesError extends Error {
  override name = "DataFilesError";
}

const FORMAT_OF_EXTENSION: Record<string, DataFormat> = {
  csv: "csv",
  tsv: "tsv",
  json: "json",
  jsonl: "json",
  parquet: "parquet",
  // The library's arrow builder: Arrow IPC streams (as `save_to_disk` writes them) and files.
  arrow: "arrow",
  // The library's text builder: one row per line, in a column "text".
  txt: "text",
  ...Object.fromEntries(IMAGE_EXTENSIONS.map((extension) => [extension, "imagefolder" as const])),
  ...Object.fromEntries(AUDIO_EXTENSIONS.map((extension) => [extension, "audiofolder" as const])),
};

export function formatOf(path: string): DataFormat | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? undefined : FORMAT_OF_EXTENSION[base.slice(dot + 1).toLowerCase()];
}

/** Files the library never reads as data (datasets' FILES_TO_IGNORE), and hidden files and folders. */
const IGNORED_NAMES = new Set([
  "README.md",
  "config.json",
  "dataset_info.json",
  "dataset_infos.json",
  "dummy_data.zip",
  "dataset_dict.json",
]);
const ignored = (path: string) =>
  path.split("/").some((part) => part.startsWith(".") || part.startsWith("__")) ||
  IGNORED_NAMES.has(path.slice(path.lastIndexOf("/") + 1));

const SPLIT_KEYWORDS: [string, string[]][] = [
  ["train", ["train", "training"]],
  ["validation", ["validation", "valid", "dev", "val"]],
  ["test", ["test", "testing", "eval", "evaluation"]],
];
/** datasets' NON_WORDS_CHARS: what may surround a keyword in a name. */
const SEP = "[-._ 0-9]";

/** A glob of the `datasets` library (fsspec's: `**` crosses folders, `*` and `?` do not) as a RegExp. */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!;
    if (char === "*") {
      if (glob[index + 1] === "*") {
        index++;
        if (glob[index + 1] === "/") {
          index++;
          source += "(?:.*/)?";
        } else source += ".*";
      } else source += "[^/]*";
    } else if (char === "?") source += "[^/]";
    else if (char === "[") {
      const end = glob.indexOf("]", index + 1);
      if (end === -1) source += "\\[";
      else {
        source += `[${glob
          .slice(index + 1, end)
          .replace(/\\/g, "\\\\")
          .replace(/^!/, "^")}]`;
        index = end;
      }
    } else source += char.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** The split a keyword in a folder name (`**\/{kw}[sep]*\/**`...) or a file name gives, as datasets matches. */
function splitByDirName(path: string): string | undefined {
  const folders = path.split("/").slice(0, -1);
  for (const [split, keywords] of SPLIT_KEYWORDS) {
    for (const keyword of keywords) {
      const pattern = new RegExp(`^(?:.*${SEP})?${keyword}(?:${SEP}.*)?$`);
      if (folders.some((folder) => pattern.test(folder))) return split;
    }
  }
  return undefined;
}

function splitByFileName(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  for (const [split, keywords] of SPLIT_KEYWORDS) {
    for (const keyword of keywords) {
      if (new RegExp(`^(?:.*${SEP})?${keyword}${SEP}.*$`).test(name)) return split;
    }
  }
  return undefined;
}

const SHARDED = /^data\/([\w]+(?:[.-][\w]+)*)-\d{5}-of-\d{5}[^/]*\.[^/]+$/;

/** Splits in the library's order: train, validation, test, then the others sorted. */
function orderSplits(splits: Map<string, string[]>): SplitFiles[] {
  const known = ["train", "validation", "test"];
  const names = [
    ...known.filter((name) => splits.has(name)),
    ...[...splits.keys()].filter((name) => !known.includes(name)).sort(),
  ];
  return names.map((split) => ({ split, paths: [...splits.get(split)!].sort() }));
}

function group(paths: readonly string[], splitOf: (path: string) => string | undefined) {
  const splits = new Map<string, string[]>();
  for (const path of paths) {
    const split = splitOf(path);
    if (split !== undefined) splits.set(split, [...(splits.get(split) ?? []), path]);
  }
  return splits;
}

/** The default config's splits from the file layout, as datasets' _get_data_files_patterns. */
function inferredSplits(paths: readonly string[]): SplitFiles[] {
  const sharded = group(paths, (path) => SHARDED.exec(path)?.[1]);
  if (sharded.size > 0) return orderSplits(sharded);
  // datasets tries the folder patterns for every split before any file-name pattern.
  const byDir = group(paths, splitByDirName);
  if (byDir.size > 0) return orderSplits(byDir);
  const byName = group(paths, splitByFileName);
  if (byName.size > 0) return orderSplits(byName);
  return orderSplits(new Map([["train", [...paths]]]));
}

/**
 * Which format wins a draw, as the library breaks one: Parquet, then Arrow, JSON and CSV (a `save_to_disk`
 * folder holds as many `.arrow` files as `state.json` files, and is read as Arrow).
 */
const DRAW_ORDER: readonly DataFormat[] = ["parquet", "arrow", "json", "csv"];
const drawRank = (format: DataFormat) => {
  const rank = DRAW_ORDER.indexOf(format);
  return rank === -1 ? DRAW_ORDER.length : rank;
};

/**
 * The format most of the files have (the library picks the builder of the most common extension, metadata
 * files counted only when nothing else is there).
 */
function dominantFormat(paths: readonly string[]): DataFormat | undefined {
  const counts = new Map<DataFormat, number>();
  const data = paths.filter((path) => !isMetadataFile(path));
  for (const path of data.length > 0 ? data : paths) {
    const format = formatOf(path);
    if (format) counts.set(format, (counts.get(format) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || drawRank(a[0]) - drawRank(b[0]))[0]?.[0];
}

interface YamlConfig {
  config_name?: unknown;
  data_files?: unknown;
  data_dir?: unknown;
}

/** The README's YAML front matter, or undefined. */
export function frontMatter(readme: string | undefined): Record<string, unknown> | undefined {
  if (!readme) return undefined;
  const match = /^---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(readme);
  if (!match) return undefined;
  try {
    const parsed = parseYaml(match[1]!) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function patternsOfSplits(dataFiles: unknown, configName: string): Map<string, string[]> {
  const asList = (value: unknown): string[] => {
    if (typeof value === "string") return [value];
    if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
    throw new DataFilesError(`configs: the data_files of ${configName} must be paths or lists of paths.`);
  };
  const splits = new Map<string, string[]>();
  if (
    typeof dataFiles === "string" ||
    (Array.isArray(dataFiles) && dataFiles.every((f) => typeof f === "string"))
  ) {
    splits.set("train", asList(dataFiles));
    return splits;
  }
  if (Array.isArray(dataFiles)) {
    for (const entry of dataFiles) {
      const { split, path } = (entry ?? {}) as { split?: unknown; path?: unknown };
      if (typeof split !== "string") {
        throw new DataFilesError(
          `configs: every data_files entry of ${configName} needs a split and a path.`,
        );
      }
      splits.set(split, [...(splits.get(split) ?? []), ...asList(path)]);
    }
    return splits;
  }
  if (dataFiles && typeof dataFiles === "object") {
    for (const [split, value] of Object.entries(dataFiles)) splits.set(split, asList(value));
    return splits;
  }
  throw new DataFilesError(`configs: ${configName} has no data_files.`);
}

/**
 * The configs and splits of a repository's files (paths at one commit) and README, as the `datasets` library
 * would load them. Throws DataFilesError when the README's `configs:` is unusable or names no file.
 */
export function findDataFiles(allPaths: readonly string[], readme: string | undefined): ConfigFiles[] {
  const paths = allPaths.filter((path) => !ignored(path) && formatOf(path) !== undefined);
  const configs = frontMatter(readme)?.configs;
  if (Array.isArray(configs) && configs.length > 0) {
    return configs.map((raw, index) => {
      const config = (raw ?? {}) as YamlConfig;
      const name = typeof config.config_name === "string" ? config.config_name : index === 0 ? "default" : "";
      if (!/^[\w][\w.-]{0,99}$/.test(name)) {
        throw new DataFilesError(
          `configs: config ${index + 1} has no usable config_name (${JSON.stringify(name)}).`,
        );
      }
      const dataDir = typeof config.data_dir === "string" ? config.data_dir.replace(/\/+$/, "") : "";
      const inDir = dataDir ? paths.filter((path) => path.startsWith(`${dataDir}/`)) : paths;
      const splits =
        config.data_files === undefined
          ? inferredSplits(inDir.map((path) => path.slice(dataDir ? dataDir.length + 1 : 0))).map((s) => ({
              split: s.split,
              paths: s.paths.map((path) => (dataDir ? `${dataDir}/${path}` : path)),
            }))
          : orderSplits(
              new Map(
                [...patternsOfSplits(config.data_files, name)].map(([split, patterns]) => {
                  const regexps = patterns.map((p) => globToRegExp(dataDir ? `${dataDir}/${p}` : p));
                  const matched = inDir.filter((path) => regexps.some((re) => re.test(path)));
                  if (matched.length === 0) {
                    throw new DataFilesError(
                      `configs: no data file of config ${name} matches ${patterns.join(", ")} (split ${split}).`,
                    );
                  }
                  return [split, matched];
                }),
              ),
            );
      const format = dominantFormat(splits.flatMap((split) => split.paths));
      if (!format)
        throw new DataFilesError(`configs: config ${name} holds no CSV, TSV, JSON, Parquet or Arrow file.`);
      return { config: name, format, splits: onlyFormat(splits, format) };
    });
  }
  const format = dominantFormat(paths);
  if (!format) return [];
  return [{ config: "default", format, splits: onlyFormat(inferredSplits(paths), format) }];
}

/**
 * JSON and JSON Lines are one builder in the library; other formats mixed in a split are left out, except a
 * folder's metadata files, which the folder builders read beside their images or audio.
 */
function onlyFormat(splits: SplitFiles[], format: DataFormat): SplitFiles[] {
  const folder = FOLDER_FORMATS.has(format);
  return splits
    .map((split) => ({
      split: split.split,
      paths: split.paths.filter((path) => formatOf(path) === format || (folder && isMetadataFile(path))),
    }))
    .filter((split) => split.paths.length > 0);
}
