import { mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type {
  DuckDBConnection,
  DuckDBInstance,
  DuckDBListType,
  DuckDBStructType,
  DuckDBType,
} from "@duckdb/node-api";
import { HubError } from "../errors.js";
import { type DataFormat, FOLDER_FORMATS } from "./data-files.js";
import { stageArrowFiles } from "./viewer-arrow.js";
import type { Feature } from "./viewer-records.js";
import type { ParsedSql } from "./viewer-sql-guard.js";

/**
 * The dataset viewer's engine: DuckDB (docs/decisions/dataset-viewer.md). Two instances: one converts the
 * hub's own temporary copies of a dataset's files to Parquet; the other answers the viewer's queries and is
 * locked down once at start (no file outside the Parquet cache, no extension installs, no network, bounded
 * memory and threads), since `/filter` puts caller-written `where` and `orderby` text into its queries.
 */

export interface EngineOptions {
  /** Where converted Parquet files are cached by sha256 (the query instance may read only there). */
  parquetDir: string;
  /** Scratch space of conversions (DuckDB spills there when a conversion outgrows its memory). */
  workDir: string;
  threads?: number;
  /** DuckDB's memory_limit per instance, e.g. "512MB". */
  memoryLimit?: string;
}

type Duck = typeof import("@duckdb/node-api");
let duckTypeIds: Duck["DuckDBTypeId"] | undefined;
let loadingDuck: Promise<Duck> | undefined;
/**
 * DuckDB's native library (about 40 MB, up to seconds to load) is loaded on the viewer's first use, not when
 * the hub starts: most hubs and test hubs never convert anything.
 */
function duck(): Promise<Duck> {
  loadingDuck ??= import("@duckdb/node-api").then((module) => {
    duckTypeIds = module.DuckDBTypeId;
    return module;
  });
  return loadingDuck;
}

/** One Parquet file written by a conversion, in order. */
export interface WrittenFile {
  localPath: string;
  numRows: number;
}

/**
 * About how many times smaller a format's rows are as zstd Parquet (measured: a 1 GiB CSV of the bench gives
 * 370 MB), to guess from the original files whether a split needs more than one Parquet file. A wrong guess
 * costs time only: a split guessed small that outgrows a file is cut (the rows written twice), one guessed
 * large is written by one thread.
 */
const PARQUET_SHRINK: Partial<Record<DataFormat, number>> = {
  csv: 2.5,
  tsv: 2.5,
  text: 2.5,
  json: 3,
  arrow: 3,
};

/** The Parquet bytes a split's local files are likely to give. */
async function expectedParquetBytes(format: DataFormat, paths: readonly string[]) {
  const sizes = await Promise.all(paths.map(async (path) => (await stat(path)).size));
  return sizes.reduce((sum, size) => sum + size, 0) / (PARQUET_SHRINK[format] ?? 1);
}

/** The SQL string literal of a text (single quotes doubled). */
export const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
/** A quoted SQL identifier. */
export const sqlIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Rows `from`..`from + count` of one Parquet file, in order, by the file's own row numbers: DuckDB skips
 * the row groups outside the range by their row counts (a LIMIT/OFFSET would decode every row before the
 * offset: seconds deep into a 10-million-row file). `columns` is the select list over the file's columns.
 */
export const rowRangeSql = (localPath: string, from: number, count: number, columns = "*") =>
  `SELECT ${columns} FROM (
     SELECT * EXCLUDE (file_row_number) FROM read_parquet(${sqlString(localPath)}, file_row_number = true)
     WHERE file_row_number >= ${from} AND file_row_number < ${from + count}
     ORDER BY file_row_number)`;

/**
 * The rows of one Parquet file at `rowNumbers` (the file's own, ascending or not), each with its index in
 * the split (`__row_idx`: `firstIndex` plus its row number). The numbers' range bounds the scan, so DuckDB
 * skips the row groups outside it.
 */
export const rowsByNumberSql = (
  localPath: string,
  rowNumbers: readonly number[],
  firstIndex: number,
  columns = "*",
) =>
  `SELECT ${columns} FROM (
     SELECT file_row_number + ${firstIndex} AS __row_idx, * EXCLUDE (file_row_number)
     FROM read_parquet(${sqlString(localPath)}, file_row_number = true)
     WHERE file_row_number BETWEEN ${Math.min(...rowNumbers)} AND ${Math.max(...rowNumbers)}
       AND file_row_number IN (${rowNumbers.join(", ")}))`;

/** The reader of each format, over the local files of one split (folders are read by viewer-folders.ts). */
export function readerSql(format: DataFormat, paths: readonly string[]): string {
  const list = `[${paths.map(sqlString).join(", ")}]`;
  switch (format) {
    case "csv":
    case "tsv":
      // pandas' inference as the `datasets` library's CSV builder does it: integers, floats, booleans and
      // strings (dates stay strings there too); a row with another number of columns is an error (`skip = 0`:
      // else the sniffer may skip the rows before a ragged one and read nothing, silently).
      return `read_csv(${list}, header = true, skip = 0, delim = ${format === "tsv" ? "'\\t'" : "','"}, strict_mode = true,
        null_padding = false, auto_type_candidates = ['BOOLEAN', 'BIGINT', 'DOUBLE', 'VARCHAR'], union_by_name = true)`;
    case "json":
      return `read_json(${list}, format = 'auto', union_by_name = true)`;
    case "parquet":
      return `read_parquet(${list}, union_by_name = true)`;
    case "text":
      // As the library's text builder (str.splitlines): one row per line, without its line break; a last
      // line break ends the last line. Files in their order, lines in theirs.
      return `(SELECT text FROM (${paths
        .map(
          (path, file) =>
            `SELECT ${file} AS __file, generate_subscripts(lines, 1) AS __line, unnest(lines) AS text
             FROM (SELECT regexp_split_to_array(regexp_replace(content, '(\r\n|\n|\r)$', ''), '\r\n|\n|\r') AS lines
                   FROM read_text(${sqlString(path)}))`,
        )
        .join(" UNION ALL ")}) ORDER BY __file, __line)`;
    case "arrow":
      throw new Error(
        "Arrow files are staged as Parquet first (viewer-arrow.ts): DuckDB has no Arrow reader.",
      );
    case "imagefolder":
    case "audiofolder":
      throw new Error(
        `A ${format} is read by its files and metadata (viewer-folders.ts), not by one reader.`,
      );
  }
}

/** The Parquet key/value metadata the `datasets` library reads its features from. */
const HF_METADATA_KEY = "huggingface";

/** The `huggingface` metadata of a Parquet file's features: `{"info": {"features": {...}}}`. */
export const huggingfaceMetadata = (features: { name: string; type: Feature }[]) =>
  JSON.stringify({ info: { features: Object.fromEntries(features.map((f) => [f.name, f.type])) } });

/** The `datasets` feature of a DuckDB column type. */
export function featureOf(type: DuckDBType): Feature {
  // Set by duck(): a column type exists only once DuckDB is loaded.
  const DuckDBTypeId = duckTypeIds!;
  const value = (dtype: string): Feature => ({ dtype, _type: "Value" });
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return value("bool");
    case DuckDBTypeId.TINYINT:
      return value("int8");
    case DuckDBTypeId.SMALLINT:
      return value("int16");
    case DuckDBTypeId.INTEGER:
      return value("int32");
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
      return value("int64");
    case DuckDBTypeId.UTINYINT:
      return value("uint8");
    case DuckDBTypeId.USMALLINT:
      return value("uint16");
    case DuckDBTypeId.UINTEGER:
      return value("uint32");
    case DuckDBTypeId.UBIGINT:
      return value("uint64");
    case DuckDBTypeId.FLOAT:
      return value("float32");
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.DECIMAL:
      return value("float64");
    case DuckDBTypeId.VARCHAR:
      return value("string");
    case DuckDBTypeId.BLOB:
      return value("binary");
    case DuckDBTypeId.DATE:
      return value("date32");
    case DuckDBTypeId.TIME:
      return value("time64[us]");
    case DuckDBTypeId.TIMESTAMP:
      return value("timestamp[us]");
    case DuckDBTypeId.TIMESTAMP_S:
      return value("timestamp[s]");
    case DuckDBTypeId.TIMESTAMP_MS:
      return value("timestamp[ms]");
    case DuckDBTypeId.TIMESTAMP_NS:
      return value("timestamp[ns]");
    case DuckDBTypeId.TIMESTAMP_TZ:
      return value("timestamp[us, tz=UTC]");
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return { feature: featureOf((type as DuckDBListType).valueType), _type: "List" };
    case DuckDBTypeId.STRUCT: {
      const struct = type as DuckDBStructType;
      return Object.fromEntries(
        struct.entryNames.map((name, index) => [name, featureOf(struct.entryTypes[index]!)]),
      );
    }
    default:
      return value("string");
  }
}

/** DuckDB's JSON may hold NaN and ±Infinity, which JSON has not: the public viewer answers them as null. */
export function parseDuckJson(text: string): unknown {
  return JSON.parse(
    text.replace(/"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g, (token) => (token.startsWith('"') ? token : "null")),
  );
}

/** A caller's query ran past its time limit and was interrupted. */
export class QueryTimeoutError extends HubError {
  constructor(timeoutMs: number) {
    super(
      408,
      "QueryTimeout",
      `The query was stopped after ${timeoutMs} ms, its time limit: narrow it (a filter, fewer columns, a LIMIT).`,
    );
  }
}

/** A caller's query was interrupted because its caller went away (the console's Cancel, a closed tab). */
export class QueryCancelledError extends HubError {
  constructor() {
    super(400, "QueryCancelled", "The query was cancelled by its caller before it finished.");
  }
}

/** A caller's query failed in the engine (unknown column, wrong types, out of its memory...). */
export class QueryFailedError extends HubError {
  constructor(message: string) {
    super(400, "QueryFailed", message);
  }
}

/** Runs queries on one short-lived connection whose temporary views name a dataset's splits. */
export interface QuerySession {
  rows(sql: string): Promise<Record<string, unknown>[]>;
  /** The columns a query answers, with DuckDB's names of their types. */
  columns(sql: string): Promise<{ name: string; type: string }[]>;
  scalar(sql: string): Promise<unknown>;
}

export function createViewerEngine(options: EngineOptions) {
  const threads = String(options.threads ?? 2);
  const memoryLimit = options.memoryLimit ?? "512MB";
  let converting: Promise<DuckDBConnection> | undefined;
  let converterInstance: DuckDBInstance | undefined;
  let querying: Promise<DuckDBConnection> | undefined;
  let queryInstance: DuckDBInstance | undefined;
  let rotating: Promise<DuckDBConnection> | undefined;

  async function converter(): Promise<DuckDBConnection> {
    converting ??= (async () => {
      await mkdir(options.workDir, { recursive: true });
      const instance = await (await duck()).DuckDBInstance.create(":memory:", {
        threads,
        memory_limit: memoryLimit,
        temp_directory: join(options.workDir, "duckdb-spill"),
        autoinstall_known_extensions: "false",
        autoload_known_extensions: "false",
        preserve_insertion_order: "true",
      });
      converterInstance = instance;
      return instance.connect();
    })();
    return converting;
  }

  /**
   * The writer of large splits: one thread, so that COPY's FILE_SIZE_BYTES starts each next file with the
   * rows that follow the last file's (with more threads, parts hold interleaved row ranges). Created on the
   * first large split; its memory is bounded as the converter's.
   */
  async function rotatingWriter(): Promise<DuckDBConnection> {
    rotating ??= (async () => {
      await mkdir(options.workDir, { recursive: true });
      const instance = await (await duck()).DuckDBInstance.create(":memory:", {
        threads: "1",
        memory_limit: memoryLimit,
        temp_directory: join(options.workDir, "duckdb-spill"),
        autoinstall_known_extensions: "false",
        autoload_known_extensions: "false",
        preserve_insertion_order: "true",
      });
      return instance.connect();
    })();
    return rotating;
  }

  async function queries(): Promise<DuckDBConnection> {
    querying ??= (async () => {
      await mkdir(options.parquetDir, { recursive: true });
      const instance = await (await duck()).DuckDBInstance.create(":memory:", {
        threads,
        memory_limit: memoryLimit,
        autoinstall_known_extensions: "false",
        autoload_known_extensions: "false",
      });
      queryInstance = instance;
      const connection = await instance.connect();
      await connection.run(`SET allowed_directories = [${sqlString(`${options.parquetDir}/`)}]`);
      await connection.run("SET enable_external_access = false");
      await connection.run("SET lock_configuration = true");
      return connection;
    })();
    return querying;
  }

  /**
   * A split likely to need several Parquet files (`expectedBytes` > `fileBytes`): written in one pass by the
   * one-thread writer, COPY starting a new file past `fileBytes`. (A split of one file is written with the
   * converter's threads, faster on an idle machine.)
   * Answers undefined when that wrote no file (no rows: the caller writes the one empty file).
   */
  async function writeRotated(select: string, outDir: string, fileBytes: number, options: string) {
    const connection = await rotatingWriter();
    const parts = join(outDir, "parts");
    await connection.run(
      `COPY (${select}) TO ${sqlString(parts)} (${options}, FILE_SIZE_BYTES ${fileBytes}, FILENAME_PATTERN 'part_{i}')`,
    );
    const names = (await readdir(parts))
      .filter((name) => /^part_\d+\.parquet$/.test(name))
      .sort((a, b) => Number(a.slice(5, -8)) - Number(b.slice(5, -8)));
    if (names.length === 0) {
      await rm(parts, { recursive: true, force: true });
      return undefined;
    }
    const written: WrittenFile[] = [];
    for (const [index, name] of names.entries()) {
      const localPath = join(outDir, `${String(index).padStart(4, "0")}.parquet`);
      await rename(join(parts, name), localPath);
      const rows = await connection.runAndReadAll(
        `SELECT count(*)::BIGINT FROM read_parquet(${sqlString(localPath)})`,
      );
      written.push({ localPath, numRows: Number(rows.getRows()[0]![0]) });
    }
    await rm(parts, { recursive: true, force: true });
    return written;
  }

  /** See `writeParquet` below. */
  async function writeParquet(
    select: string,
    outDir: string,
    fileBytes: number,
    huggingface: string | undefined,
    expectedBytes = 0,
  ): Promise<WrittenFile[]> {
    const connection = await converter();
    await rm(outDir, { recursive: true, force: true });
    await mkdir(outDir, { recursive: true });
    const metadata = huggingface ? `, KV_METADATA {${HF_METADATA_KEY}: ${sqlString(huggingface)}}` : "";
    const options = `FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000${metadata}`;
    if (expectedBytes > fileBytes) {
      const rotated = await writeRotated(select, outDir, fileBytes, options);
      if (rotated) return rotated;
    }
    // One file first, with the converter's threads: COPY keeps the rows' order only when it writes one file
    // (with FILE_SIZE_BYTES its threads write parts in any order), and the viewer's row indexes are the
    // split's order. Most splits are one file; a larger one is cut below.
    const whole = join(outDir, "whole.parquet");
    await connection.run(`COPY (${select}) TO ${sqlString(whole)} (${options})`);
    const count = async (path: string) =>
      Number(
        (
          await connection.runAndReadAll(`SELECT count(*)::BIGINT FROM read_parquet(${sqlString(path)})`)
        ).getRows()[0]![0],
      );
    const numRows = await count(whole);
    const parts = Math.max(1, Math.ceil((await stat(whole)).size / fileBytes));
    const first = join(outDir, "0000.parquet");
    if (parts === 1) {
      await rename(whole, first);
      return [{ localPath: first, numRows }];
    }
    // Larger than a file although its originals were not (rare): cut by row ranges of the one file. No ORDER
    // BY: the converter preserves insertion order (a scan of a row range is written in the file's order),
    // and sorting millions of wide rows spilled past the memory limit and cost more than the cut itself
    // (bench/results/2026-11-30-datasets.md).
    const rowsPerPart = Math.ceil(numRows / parts);
    const written: WrittenFile[] = [];
    for (let index = 0; index * rowsPerPart < numRows; index++) {
      const localPath = join(outDir, `${String(index).padStart(4, "0")}.parquet`);
      const from = index * rowsPerPart;
      await connection.run(
        `COPY (SELECT * EXCLUDE (file_row_number) FROM read_parquet(${sqlString(whole)}, file_row_number = true)
                 WHERE file_row_number >= ${from} AND file_row_number < ${from + rowsPerPart})
           TO ${sqlString(localPath)} (${options})`,
      );
      written.push({ localPath, numRows: await count(localPath) });
    }
    await rm(whole, { force: true });
    return written;
  }

  /** The `huggingface` metadata of a Parquet file, if it has one. */
  async function huggingfaceOf(path: string): Promise<string | undefined> {
    const connection = await converter();
    const rows = (
      await connection.runAndReadAll(
        `SELECT decode(value) FROM parquet_kv_metadata(${sqlString(path)}) WHERE decode(key) = '${HF_METADATA_KEY}'`,
      )
    ).getRows();
    return rows[0]?.[0] === undefined || rows[0][0] === null ? undefined : String(rows[0][0]);
  }

  return {
    parquetDir: options.parquetDir,

    /**
     * Converts one split's local files to Parquet files of about `fileBytes` each in `outDir` (emptied first),
     * returned in order with their row counts. Throws DuckDB's error (a ragged CSV, a bad JSON line...), or
     * an ArrowFileError for an Arrow file that is not whole; `names` name the files in errors.
     */
    async convert(
      format: DataFormat,
      paths: readonly string[],
      outDir: string,
      fileBytes: number,
      names: readonly string[] = paths,
    ): Promise<WrittenFile[]> {
      if (FOLDER_FORMATS.has(format)) throw new Error(`A ${format} is converted by viewer-folders.ts.`);
      if (format === "arrow") {
        await mkdir(options.workDir, { recursive: true });
        const scratch = await mkdtemp(join(options.workDir, "arrow-"));
        try {
          // The `huggingface` schema metadata (features `datasets` wrote) is carried as a Parquet file's is.
          const staged = await stageArrowFiles(paths, names, scratch);
          return await writeParquet(
            `SELECT * FROM ${readerSql("parquet", staged.parts)}`,
            outDir,
            fileBytes,
            staged.huggingface,
            await expectedParquetBytes("arrow", paths),
          );
        } finally {
          await rm(scratch, { recursive: true, force: true });
        }
      }
      // A Parquet file written by `datasets` names its features (images, audio, class labels): kept.
      const huggingface = format === "parquet" && paths[0] ? await huggingfaceOf(paths[0]) : undefined;
      return writeParquet(
        `SELECT * FROM ${readerSql(format, paths)}`,
        outDir,
        fileBytes,
        huggingface,
        await expectedParquetBytes(format, paths),
      );
    },

    /**
     * Writes the rows of the hub's own `select` (over local files) as Parquet files of about `fileBytes` each
     * in `outDir`, with `huggingface` metadata (the `datasets` features) when given; `expectedBytes`, the
     * Parquet bytes it is likely to give, picks the one-pass writer of large splits when larger than a file.
     */
    writeParquet: (
      select: string,
      outDir: string,
      fileBytes: number,
      huggingface?: string,
      expectedBytes?: number,
    ) => writeParquet(select, outDir, fileBytes, huggingface, expectedBytes),

    /** The columns a query over local files answers, as `datasets` features (nothing is read but types). */
    async describe(select: string): Promise<{ name: string; type: Feature }[]> {
      const connection = await converter();
      const result = await connection.runAndReadAll(`SELECT * FROM (${select}) LIMIT 0`);
      return result
        .columnNames()
        .map((name, index) => ({ name, type: featureOf(result.columnTypes()[index]!) }));
    },

    /** The columns of a Parquet file, as `datasets` features. */
    async features(localPath: string): Promise<{ name: string; type: Feature }[]> {
      const connection = await converter();
      const result = await connection.runAndReadAll(
        `SELECT * FROM read_parquet(${sqlString(localPath)}) LIMIT 0`,
      );
      // The features `datasets` wrote (Image, Audio, ClassLabel...) where it wrote them; else the column types.
      const huggingfaceText = await huggingfaceOf(localPath);
      const written = (() => {
        try {
          return (JSON.parse(huggingfaceText ?? "{}") as { info?: { features?: Record<string, Feature> } })
            .info?.features;
        } catch {
          return undefined;
        }
      })();
      return result.columnNames().map((name, index) => ({
        name,
        type: written?.[name] ?? featureOf(result.columnTypes()[index]!),
      }));
    },

    /** Rows of a query over cached Parquet files, each as a JSON object (NaN and infinities as null). */
    async rows(sql: string): Promise<Record<string, unknown>[]> {
      const connection = await queries();
      const result = await connection.runAndReadAll(
        `SELECT to_json(__viewer_row)::VARCHAR FROM (${sql}) __viewer_row`,
      );
      return result.getRows().map((row) => parseDuckJson(String(row[0])) as Record<string, unknown>);
    },

    /** One value of a query (a count). */
    async scalar(sql: string): Promise<unknown> {
      const connection = await queries();
      const result = await connection.runAndReadAll(sql);
      const value = result.getRows()[0]?.[0];
      return typeof value === "bigint" ? Number(value) : value;
    },

    /** Rows of a query as plain JSON values (statistics). */
    async records(sql: string): Promise<Record<string, unknown>[]> {
      return this.rows(sql);
    },

    /** Rows of a query on the converter's instance (statistics of freshly written Parquet files). */
    async inspect(sql: string): Promise<Record<string, unknown>[]> {
      const connection = await converter();
      const result = await connection.runAndReadAll(
        `SELECT to_json(__viewer_row)::VARCHAR FROM (${sql}) __viewer_row`,
      );
      return result.getRows().map((row) => parseDuckJson(String(row[0])) as Record<string, unknown>);
    },

    /**
     * The first column of a query (the hub's own SQL over cached Parquet files) as text, a chunk of rows at a
     * time, on a connection of its own of the converter's instance: memory stays that of one chunk, and the
     * viewer's queries are not held up behind it.
     */
    async *streamTexts(sql: string): AsyncGenerator<(string | null)[]> {
      await converter();
      const connection = await converterInstance!.connect();
      try {
        const result = await connection.stream(sql);
        for await (const rows of result.yieldRows()) {
          yield rows.map((row) => (row[0] === null || row[0] === undefined ? null : String(row[0])));
        }
      } finally {
        connection.closeSync();
      }
    },

    /** DuckDB's parse tree of caller-written text (nothing runs; checked by viewer-sql-guard.ts). */
    async parse(text: string): Promise<ParsedSql> {
      const connection = await queries();
      const result = await connection.runAndReadAll("SELECT json_serialize_sql($1::VARCHAR)::VARCHAR", [
        text,
      ]);
      return JSON.parse(String(result.getRows()[0]![0])) as ParsedSql;
    },

    /** The SQL text of a (checked) parse tree, as DuckDB renders it. */
    async render(parsed: ParsedSql): Promise<string> {
      const connection = await queries();
      // DuckDB marks "no location" with 2^64 - 1, which a JavaScript number rounds up past 64 bits: put it back.
      const json = JSON.stringify(parsed).replace(
        /"query_location":\d{20,}/g,
        '"query_location":18446744073709551615',
      );
      const result = await connection.runAndReadAll("SELECT json_deserialize_sql($1::VARCHAR::JSON)", [json]);
      return String(result.getRows()[0]![0]);
    },

    /**
     * Runs `work` on a connection of its own whose temporary views (`views`: name to a trusted SELECT) are the
     * dataset's splits, interrupted after `timeoutMs`, or as soon as `signal` aborts (the caller went away:
     * a cancelled query must not keep the instance's threads busy until its time limit). Views are the
     * connection's own: no other request sees them. Memory and threads are the query instance's bounds.
     */
    async session<T>(
      views: Record<string, string>,
      timeoutMs: number,
      work: (session: QuerySession) => Promise<T>,
      signal?: AbortSignal,
    ): Promise<T> {
      if (signal?.aborted) throw new QueryCancelledError();
      await queries();
      const connection = await queryInstance!.connect();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        connection.interrupt();
      }, timeoutMs);
      const cancel = () => connection.interrupt();
      signal?.addEventListener("abort", cancel, { once: true });
      const guard = async <R>(run: () => Promise<R>): Promise<R> => {
        if (signal?.aborted) throw new QueryCancelledError();
        try {
          return await run();
        } catch (error) {
          if (timedOut) throw new QueryTimeoutError(timeoutMs);
          if (signal?.aborted) throw new QueryCancelledError();
          throw new QueryFailedError(error instanceof Error ? error.message : String(error));
        }
      };
      try {
        for (const [name, sql] of Object.entries(views)) {
          await connection.run(`CREATE OR REPLACE TEMP VIEW ${sqlIdentifier(name)} AS ${sql}`);
        }
        return await work({
          rows: (sql) =>
            guard(async () => {
              const result = await connection.runAndReadAll(
                `SELECT to_json(__viewer_row)::VARCHAR FROM (${sql}) __viewer_row`,
              );
              return result.getRows().map((row) => parseDuckJson(String(row[0])) as Record<string, unknown>);
            }),
          columns: (sql) =>
            guard(async () => {
              const result = await connection.runAndReadAll(`SELECT * FROM (${sql}) __viewer_row LIMIT 0`);
              return result
                .columnNames()
                .map((name, index) => ({ name, type: String(result.columnTypes()[index]) }));
            }),
          scalar: (sql) =>
            guard(async () => {
              const value = (await connection.runAndReadAll(sql)).getRows()[0]?.[0];
              return typeof value === "bigint" ? Number(value) : value;
            }),
        });
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", cancel);
        connection.closeSync();
      }
    },
  };
}

export type ViewerEngine = ReturnType<typeof createViewerEngine>;
