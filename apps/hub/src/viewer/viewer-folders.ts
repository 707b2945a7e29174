import { mkdir, writeFile } from "node:fs/promises";
import { join, posix } from "node:path";
import { type ConfigFiles, DataFilesError, type DataFormat, formatOf, isMetadataFile } from "./data-files.js";
import {
  huggingfaceMetadata,
  readerSql,
  sqlIdentifier,
  sqlString,
  type ViewerEngine,
  type WrittenFile,
} from "./viewer-engine.js";
import type { Feature } from "./viewer-records.js";

/**
 * Image and audio folders, converted as the `datasets` library's folder builders read them
 * (folder_based_builder.py): with metadata files (`metadata.csv`, `metadata.jsonl`, `metadata.parquet`), one
 * row per metadata row, its `file_name` (or `{column}_file_name`) column becoming the image or audio column
 * (`image`, `audio`, or `{column}`), the file found beside the metadata file; without, one row per file, with
 * a `label` class from the file's folder when the files sit at one depth in more than one folder.
 *
 * Each image or audio cell is written as the library writes it to Parquet (a struct of the file's `bytes` and
 * its `path`, here its path in the repository) under `huggingface` metadata naming the features, so that
 * `load_dataset(..., revision="refs/convert/parquet")` decodes them as the originals; the viewer's rows show
 * them as the public viewer does (viewer-media.ts).
 */

/** The column and feature of each folder builder. */
const BASE: Record<string, { column: string; feature: Feature }> = {
  imagefolder: { column: "image", feature: { _type: "Image" } as unknown as Feature },
  audiofolder: { column: "audio", feature: { _type: "Audio" } as unknown as Feature },
};

/** What a config's files say about all its splits: rows from metadata, or labels from folder names. */
export interface FolderPlan {
  withMetadata: boolean;
  /** Class names (sorted) when rows get a `label`; undefined when they do not. */
  labels: string[] | undefined;
}

const folderOf = (path: string) => posix.basename(posix.dirname(path));

export function folderPlan(config: ConfigFiles): FolderPlan {
  const paths = config.splits.flatMap((split) => split.paths);
  if (paths.some(isMetadataFile)) return { withMetadata: true, labels: undefined };
  const labels = new Set(paths.map(folderOf));
  const depths = new Set(paths.map((path) => path.split("/").length));
  return {
    withMetadata: false,
    labels: labels.size > 1 && depths.size === 1 ? [...labels].sort() : undefined,
  };
}

export interface FolderSplitInput {
  format: DataFormat;
  plan: FolderPlan;
  /** The split's repository paths: its images or audio files, and its metadata files. */
  paths: readonly string[];
  /** Every path of the commit: a metadata row may name a file outside the split's own list. */
  repoPaths: ReadonlySet<string>;
  sizeOf(path: string): number;
  /** Copies a repository file to a local path; answers the bytes copied. */
  download(path: string, to: string): Promise<number>;
  /** Scratch space of this split alone (its copies stay there until the caller removes it). */
  work: string;
  outDir: string;
  fileBytes: number;
  /** Bytes of files converted before the split is cut (and marked partial). */
  limitBytes: number;
}

/** A metadata row's file name as a path in the repository, refused as the library refuses it. */
function fileOfRow(metadataPath: string, name: string): string {
  const relative = posix.normalize(name.replaceAll("\\", "/"));
  if (name.includes("://") || posix.isAbsolute(relative) || relative === ".." || relative.startsWith("../")) {
    throw new DataFilesError(
      `${metadataPath}: file_name ${JSON.stringify(name)} must be a relative path inside the metadata file's folder.`,
    );
  }
  const folder = posix.dirname(metadataPath);
  return folder === "." ? relative : posix.join(folder, relative);
}

/** Converts one split of an image or audio folder; answers its Parquet files and what was converted. */
export async function convertFolderSplit(
  engine: ViewerEngine,
  input: FolderSplitInput,
): Promise<{ written: WrittenFile[]; originalBytes: number; partial: boolean }> {
  const base = BASE[input.format]!;
  const scratch = input.work;
  const mediaDir = join(scratch, "media");
  await mkdir(mediaDir, { recursive: true });
  let originalBytes = 0;
  let partial = false;
  /** Local copies of repository files, by path (`undefined`: past the split's limit, not converted). */
  const copies = new Map<string, string | undefined>();
  async function copy(path: string): Promise<string | undefined> {
    if (copies.has(path)) return copies.get(path);
    let local: string | undefined;
    if (originalBytes + input.sizeOf(path) > input.limitBytes) partial = true;
    else {
      local = join(mediaDir, `${copies.size}${posix.extname(path).toLowerCase()}`);
      originalBytes += await input.download(path, local);
    }
    copies.set(path, local);
    return local;
  }
  // The copied files' bytes (none copied: no rows, and no glob over an empty folder).
  const blobs = () =>
    [...copies.values()].some(Boolean)
      ? `read_blob(${sqlString(join(mediaDir, "*"))})`
      : "(SELECT NULL::VARCHAR AS filename, NULL::BLOB AS content WHERE false)";

  if (!input.plan.withMetadata) {
    const manifest: { ord: number; local: string; path: string; label: number | null }[] = [];
    for (const path of input.paths) {
      const local = await copy(path);
      if (!local) break;
      const label = input.plan.labels ? input.plan.labels.indexOf(folderOf(path)) : null;
      manifest.push({ ord: manifest.length, local, path, label });
    }
    const manifestPath = join(scratch, "manifest.jsonl");
    await writeFile(manifestPath, manifest.map((row) => JSON.stringify(row)).join("\n"));
    const label = input.plan.labels ? ", m.label AS label" : "";
    const select = manifest.length
      ? `SELECT {'bytes': b.content, 'path': m.path} AS ${base.column}${label}
         FROM read_json(${sqlString(manifestPath)}, format = 'newline_delimited',
           columns = {ord: 'BIGINT', local: 'VARCHAR', path: 'VARCHAR', label: 'BIGINT'}) m
         JOIN ${blobs()} b ON b.filename = m.local ORDER BY m.ord`
      : `SELECT NULL::STRUCT(bytes BLOB, path VARCHAR) AS ${base.column}${input.plan.labels ? ", NULL::BIGINT AS label" : ""} WHERE false`;
    const features = (await engine.describe(select)).map((column) => ({
      name: column.name,
      type:
        column.name === base.column
          ? base.feature
          : column.name === "label" && input.plan.labels
            ? ({ names: input.plan.labels, _type: "ClassLabel" } as unknown as Feature)
            : column.type,
    }));
    const written = await engine.writeParquet(
      select,
      input.outDir,
      input.fileBytes,
      huggingfaceMetadata(features),
    );
    return { written, originalBytes, partial };
  }

  // With metadata: the split's metadata files, in one format (the library refuses a mix).
  const metadataPaths = input.paths.filter(isMetadataFile);
  const formats = new Set(metadataPaths.map((path) => posix.extname(path)));
  if (formats.size > 1) {
    throw new DataFilesError(
      `Metadata files of several formats: ${metadataPaths.join(", ")}. Keep one format.`,
    );
  }
  if (metadataPaths.length === 0) {
    // The library reads rows from metadata files only, and this split has none.
    const select = `SELECT NULL::STRUCT(bytes BLOB, path VARCHAR) AS ${base.column} WHERE false`;
    const features = [{ name: base.column, type: base.feature }];
    return {
      written: await engine.writeParquet(
        select,
        input.outDir,
        input.fileBytes,
        huggingfaceMetadata(features),
      ),
      originalBytes: 0,
      partial: false,
    };
  }
  const metadataFormat = formatOf(metadataPaths[0]!)!;
  const readers: string[] = [];
  for (const [index, path] of metadataPaths.entries()) {
    const local = join(scratch, `metadata-${index}${posix.extname(path)}`);
    originalBytes += await input.download(path, local);
    readers.push(
      `SELECT ${index} AS __meta, row_number() OVER () AS __row, * FROM ${readerSql(metadataFormat, [local])}`,
    );
  }
  const columns = await engine.describe(readers[0]!);
  const fileColumns = columns.filter(
    (column) =>
      (column.name === "file_name" || column.name.endsWith("_file_name")) &&
      (column.type as { dtype?: unknown }).dtype === "string",
  );
  if (fileColumns.length === 0) {
    throw new DataFilesError(
      `${metadataPaths[0]}: a metadata file needs a file_name (or {column}_file_name) column naming each row's file.`,
    );
  }
  const rowsSql = readers.join(" UNION ALL BY NAME ");
  // Each file a row names: copied once, found again by (metadata file, name, column).
  const mapping: { meta: number; name: string; local: string | null; path: string }[] = [];
  for (const column of fileColumns) {
    const names = await engine.inspect(
      `SELECT DISTINCT __meta, ${sqlIdentifier(column.name)} AS name FROM (${rowsSql}) WHERE ${sqlIdentifier(column.name)} IS NOT NULL ORDER BY __meta, name`,
    );
    for (const { __meta, name } of names as { __meta: number; name: string }[]) {
      const metadataPath = metadataPaths[__meta]!;
      const path = fileOfRow(metadataPath, name);
      if (!input.repoPaths.has(path)) {
        throw new DataFilesError(
          `${metadataPath}: file_name ${JSON.stringify(name)} names ${path}, which the repository does not hold.`,
        );
      }
      mapping.push({ meta: __meta, name, local: (await copy(path)) ?? null, path });
    }
  }
  const mappingPath = join(scratch, "mapping.jsonl");
  await writeFile(mappingPath, mapping.map((row) => JSON.stringify(row)).join("\n"));
  const files = `(SELECT map.meta, map.name, map.path, b.content
     FROM read_json(${sqlString(mappingPath)}, format = 'newline_delimited',
       columns = {meta: 'BIGINT', name: 'VARCHAR', local: 'VARCHAR', path: 'VARCHAR'}) map
     JOIN ${blobs()} b ON b.filename = map.local)`;
  const columnOf = (name: string) =>
    name === "file_name" ? base.column : name.slice(0, -"_file_name".length);
  const selected = columns
    .filter((column) => column.name !== "__meta" && column.name !== "__row")
    .map((column) => {
      const at = fileColumns.findIndex((file) => file.name === column.name);
      return at < 0
        ? `m.${sqlIdentifier(column.name)}`
        : `CASE WHEN f${at}.path IS NULL THEN NULL ELSE {'bytes': f${at}.content, 'path': f${at}.path} END AS ${sqlIdentifier(columnOf(column.name))}`;
    });
  const joins = fileColumns
    .map(
      (column, at) =>
        `LEFT JOIN ${files} f${at} ON f${at}.meta = m.__meta AND f${at}.name = m.${sqlIdentifier(column.name)}`,
    )
    .join("\n");
  // Rows whose file is past the split's limit are left out with it (the split is then partial).
  const kept = fileColumns
    .map((column, at) => `(m.${sqlIdentifier(column.name)} IS NULL OR f${at}.path IS NOT NULL)`)
    .join(" AND ");
  const select = `SELECT ${selected.join(", ")} FROM (${rowsSql}) m ${joins} WHERE ${kept} ORDER BY m.__meta, m.__row`;
  const features = (await engine.describe(select)).map((column) => ({
    name: column.name,
    type: fileColumns.some((file) => columnOf(file.name) === column.name) ? base.feature : column.type,
  }));
  const written = await engine.writeParquet(
    select,
    input.outDir,
    input.fileBytes,
    huggingfaceMetadata(features),
  );
  return { written, originalBytes, partial };
}
