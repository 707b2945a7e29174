import { repoNotFound } from "../auth/authorize.js";
import { HubError, InvalidInputError, NotFoundError, UnavailableError } from "../errors.js";
import type { RepoAccess, RepoActor } from "../repos/repo-access.js";
import type { RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import {
  QueryFailedError,
  rowRangeSql,
  rowsByNumberSql,
  sqlString,
  type ViewerEngine,
} from "./viewer-engine.js";
import { queryTerms, searchableColumns, searchFullTextIndex } from "./viewer-fulltext.js";
import { createIndexReader } from "./viewer-fulltext-reader.js";
import { mediaColumns, presentMedia, viewerColumns } from "./viewer-media.js";
import type { ConversionResult, ConvertedSplit } from "./viewer-records.js";
import { PARQUET_REF, type ViewerService } from "./viewer-service.js";
import {
  checkConsoleQuery,
  checkFilter,
  filterProbe,
  InvalidSqlParameterError,
  withFilter,
} from "./viewer-sql-guard.js";

/** At most this many rows per /rows, /search or /filter page, as the public viewer. */
export const MAX_PAGE_ROWS = 100;
/** Rows of /first-rows. */
const FIRST_ROWS = 100;
/** A /filter query is interrupted after this long (its memory and threads are the query instance's). */
const FILTER_TIMEOUT_MS = 15_000;
/** The SQL console's bounds: rows per answer, and time per query. */
export const CONSOLE_MAX_ROWS = 1_000;
export const CONSOLE_TIMEOUT_MS = 20_000;

/** The conversion of the dataset failed: 500 with its recorded reason, as the public viewer answers. */
export class ConversionFailedError extends HubError {
  constructor(reason: string) {
    super(500, "conversion_failed", `The dataset could not be converted to Parquet: ${reason}`);
  }
}

export interface ViewerApiDeps {
  repos: RepoService;
  access: RepoAccess;
  viewer: ViewerService;
  engine: ViewerEngine;
  publicUrl: string;
}

export interface Page {
  offset: number;
  length: number;
}

/**
 * The public dataset viewer's API (https://huggingface.co/docs/dataset-viewer) over this hub's conversions:
 * every call authorizes the caller as a download of the dataset's files does, then answers from the
 * converted Parquet files (queried by the engine, one page at a time).
 */
export function createViewerApi(deps: ViewerApiDeps) {
  const { engine } = deps;
  /** Full-text indexes are read on a worker thread: a broad search never holds the hub's other requests. */
  const indexReader = createIndexReader();

  /**
   * The dataset, if the caller may read its files: the check /resolve makes (a private dataset is a 404, or
   * 401 without credentials, to whoever may not see it; a gated one needs granted access).
   */
  async function dataset(actor: RepoActor, id: string | undefined): Promise<RepoRecord> {
    if (!id) throw new InvalidInputError("Parameter 'dataset' is required.");
    const found = await deps.repos.find("dataset", id);
    if (!found) throw repoNotFound(actor, id);
    await deps.access.authorize(actor, "read-files", found.repo);
    return found.repo;
  }

  /** The latest finished conversion of main's head; errors say when it is not ready or failed. */
  async function converted(repo: RepoRecord): Promise<ConversionResult> {
    const job = await deps.viewer.job(repo);
    const head = await deps.repos.refTarget(repo, "refs/heads/main");
    if (!job || (job.convertedOid !== head && job.status !== "error") || (!job.result && !job.error)) {
      throw new UnavailableError(
        "The response is not ready yet: the dataset is being converted. Retry later.",
      );
    }
    if (job.error !== undefined && job.convertedOid === head) throw new ConversionFailedError(job.error);
    if (!job.result) throw new UnavailableError("The response is not ready yet. Retry later.");
    return job.result;
  }

  function splitOf(
    result: ConversionResult,
    config: string | undefined,
    split: string | undefined,
  ): ConvertedSplit {
    if (!config) throw new InvalidInputError("Parameter 'config' is required.");
    if (!split) throw new InvalidInputError("Parameter 'split' is required.");
    const found = result.splits.find((s) => s.config === config && s.split === split);
    if (!found) throw new NotFoundError(`Not found: config ${config}, split ${split}.`);
    return found;
  }

  const featuresOf = (split: ConvertedSplit) =>
    split.features.map((feature, index) => ({ feature_idx: index, name: feature.name, type: feature.type }));

  /**
   * How a split's rows are shown: image and audio cells as the public viewer's (viewer-media.ts), linking to
   * the repository's files at the converted commit (their access is /resolve's) when they are there.
   */
  function presenter(repo: RepoRecord, result: ConversionResult, split: ConvertedSplit) {
    const media = mediaColumns(split.features);
    const base = `${deps.publicUrl}/datasets/${repo.id}/resolve/${result.sourceCommit}/`;
    const srcOf = split.mediaInRepository
      ? (path: string) => base + path.split("/").map(encodeURIComponent).join("/")
      : undefined;
    return (row: Record<string, unknown>) => presentMedia(row, media, srcOf);
  }

  /** The select list of a split's rows (image and audio cells cut down: viewer-media.ts). */
  const columnsOf = (split: ConvertedSplit) => viewerColumns(split.features, !split.mediaInRepository);

  /** A page of the rows a query matched (`/search`, `/filter`): each with its index in the split. */
  const matchedPage = (
    split: ConvertedSplit,
    found: Record<string, unknown>[],
    total: number,
    present: (row: Record<string, unknown>) => Record<string, unknown>,
  ) => ({
    features: featuresOf(split),
    rows: found.map(({ __row_idx, ...row }) => ({
      row_idx: Number(__row_idx),
      row: present(row),
      truncated_cells: [] as string[],
    })),
    num_rows_total: total,
    num_rows_per_page: MAX_PAGE_ROWS,
    partial: split.partial,
  });

  async function sources(repo: RepoRecord, split: ConvertedSplit): Promise<string> {
    const locals = await Promise.all(split.files.map((file) => deps.viewer.localParquet(file, repo.key)));
    return `read_parquet([${locals.map(sqlString).join(", ")}])`;
  }

  /** A page of a split: only the Parquet files that hold it are read, and of those only its row groups. */
  async function page(repo: RepoRecord, split: ConvertedSplit, { offset, length }: Page) {
    const rows: Record<string, unknown>[] = [];
    let start = 0;
    for (const file of split.files) {
      const end = start + file.numRows;
      const from = Math.max(offset + rows.length, start);
      const want = offset + length - from;
      if (from < end && want > 0) {
        const local = await deps.viewer.localParquet(file, repo.key);
        rows.push(
          ...(await engine.rows(
            rowRangeSql(local, from - start, Math.min(want, end - from), columnsOf(split)),
          )),
        );
      }
      start = end;
    }
    return rows;
  }

  /**
   * A split as a view with each row's index (`__row_idx`, from the Parquet files' own row numbers, so that it
   * is the row's index in /rows whatever order a filter puts rows in).
   */
  async function indexedView(repo: RepoRecord, split: ConvertedSplit): Promise<string> {
    if (split.files.length === 0) return "SELECT NULL::BIGINT AS __row_idx WHERE false";
    const parts: string[] = [];
    let start = 0;
    for (const file of split.files) {
      const local = await deps.viewer.localParquet(file, repo.key);
      parts.push(
        `SELECT ${columnsOf(split)} FROM (
           SELECT file_row_number + ${start} AS __row_idx, * EXCLUDE (file_row_number)
           FROM read_parquet(${sqlString(local)}, file_row_number = true))`,
      );
      start += file.numRows;
    }
    return parts.join(" UNION ALL ");
  }

  /**
   * The rows of a split at `indexes` (each with its `__row_idx`), in the order of `indexes`; of each file,
   * only the row groups within the range of its indexes are read.
   */
  async function rowsAt(repo: RepoRecord, split: ConvertedSplit, indexes: readonly number[]) {
    const byIndex = new Map<number, Record<string, unknown>>();
    let start = 0;
    for (const file of split.files) {
      const end = start + file.numRows;
      const inFile = indexes.filter((index) => index >= start && index < end).map((index) => index - start);
      if (inFile.length > 0) {
        const local = await deps.viewer.localParquet(file, repo.key);
        const found = await engine.rows(rowsByNumberSql(local, inFile, start, columnsOf(split)));
        for (const row of found) byIndex.set(Number(row.__row_idx), row);
      }
      start = end;
    }
    return indexes.flatMap((index) => {
      const row = byIndex.get(index);
      return row ? [row] : [];
    });
  }

  const rowsOf = (
    rows: Record<string, unknown>[],
    offset: number,
    present: (row: Record<string, unknown>) => Record<string, unknown>,
  ) =>
    rows.map((row, index) => ({
      row_idx: offset + index,
      row: present(row),
      truncated_cells: [] as string[],
    }));

  return {
    dataset,

    async isValid(actor: RepoActor, id: string | undefined) {
      const repo = await dataset(actor, id);
      const job = await deps.viewer.job(repo);
      const ok = job?.result !== undefined;
      const statistics = ok && job!.result!.splits.some((split) => split.statistics !== undefined);
      // As the public viewer: search is offered when some split has a text column to index.
      const search = ok && job!.result!.splits.some((split) => searchableColumns(split.features).length > 0);
      return { preview: ok, viewer: ok, search, filter: ok, statistics };
    },

    async splits(actor: RepoActor, id: string | undefined) {
      const repo = await dataset(actor, id);
      const result = await converted(repo);
      return {
        splits: result.splits.map((s) => ({ dataset: repo.id, config: s.config, split: s.split })),
        pending: [],
        failed: [],
      };
    },

    async firstRows(actor: RepoActor, id: string | undefined, config?: string, splitName?: string) {
      const repo = await dataset(actor, id);
      const result = await converted(repo);
      const split = splitOf(result, config, splitName);
      const rows = await page(repo, split, { offset: 0, length: FIRST_ROWS });
      return {
        dataset: repo.id,
        config: split.config,
        split: split.split,
        features: featuresOf(split),
        rows: rowsOf(rows, 0, presenter(repo, result, split)),
        truncated: split.numRows > rows.length,
      };
    },

    async rows(
      actor: RepoActor,
      id: string | undefined,
      config: string | undefined,
      splitName: string | undefined,
      range: Page,
    ) {
      const repo = await dataset(actor, id);
      const result = await converted(repo);
      const split = splitOf(result, config, splitName);
      const rows = await page(repo, split, range);
      return {
        features: featuresOf(split),
        rows: rowsOf(rows, range.offset, presenter(repo, result, split)),
        num_rows_total: split.numRows,
        num_rows_per_page: MAX_PAGE_ROWS,
        partial: split.partial,
      };
    },

    /**
     * Rows holding any word of `query` in a text column, best first (BM25), as the public viewer's full-text
     * search (viewer-fulltext.ts): the split's index gives the page's row indexes, the Parquet files the rows.
     */
    async search(
      actor: RepoActor,
      id: string | undefined,
      config: string | undefined,
      splitName: string | undefined,
      query: string | undefined,
      range: Page,
    ) {
      if (!query) throw new InvalidInputError("Parameter 'query' is required.");
      const repo = await dataset(actor, id);
      const result = await converted(repo);
      const split = splitOf(result, config, splitName);
      const terms = queryTerms(query);
      const index = terms.length > 0 ? await deps.viewer.searchIndex(repo, result, split) : undefined;
      const present = presenter(repo, result, split);
      if (!index) return matchedPage(split, [], 0, present);
      const { total, rowIndexes } = await searchFullTextIndex(indexReader, index, terms, range);
      return matchedPage(split, await rowsAt(repo, split, rowIndexes), total, present);
    },

    /**
     * Rows matching a caller-written `where` (SQL over the split's columns), ordered by `orderby`, as the
     * public viewer's /filter. The text is parsed by DuckDB and checked (viewer-sql-guard.ts): only
     * expressions over this split's columns, no subquery, table, file or setting; what runs is the checked
     * parse placed in the hub's own query.
     */
    async filter(
      actor: RepoActor,
      id: string | undefined,
      config: string | undefined,
      splitName: string | undefined,
      where: string | undefined,
      orderby: string | undefined,
      range: Page,
    ) {
      const probe = filterProbe(where, orderby);
      const repo = await dataset(actor, id);
      const result = await converted(repo);
      const split = splitOf(result, config, splitName);
      const hasOrderby = Boolean(orderby?.trim());
      const checked = checkFilter(
        await engine.parse(probe),
        split.features.map((f) => f.name),
        hasOrderby,
      );
      const pageSql = await engine.render(
        withFilter(
          await engine.parse(
            `SELECT * EXCLUDE (__row_idx), __row_idx FROM data WHERE true ORDER BY __row_idx
             LIMIT ${range.length} OFFSET ${range.offset}`,
          ),
          checked,
        ),
      );
      const countSql = await engine.render(
        withFilter(await engine.parse("SELECT count(*) FROM data WHERE true"), checked),
      );
      const { total, found } = await engine
        .session({ data: await indexedView(repo, split) }, FILTER_TIMEOUT_MS, async (session) => ({
          total: Number(await session.scalar(countSql)),
          found: range.length > 0 ? await session.rows(pageSql) : [],
        }))
        .catch((error: unknown) => {
          if (error instanceof QueryFailedError) {
            throw new InvalidSqlParameterError(
              `Parameter '${hasOrderby ? "where' or 'orderby" : "where"}' is invalid: ${error.message}`,
            );
          }
          throw error;
        });
      return matchedPage(split, found, total, presenter(repo, result, split));
    },

    /** Per-column statistics of a split, computed when it was converted (the public viewer's shape). */
    async statistics(actor: RepoActor, id: string | undefined, config?: string, splitName?: string) {
      const repo = await dataset(actor, id);
      const split = splitOf(await converted(repo), config, splitName);
      if (!split.statistics) {
        throw new UnavailableError(
          "The statistics of this split were not computed with its conversion: they will be with the next commit.",
        );
      }
      return { num_examples: split.numRows, statistics: split.statistics, partial: split.partial };
    },

    /**
     * The SQL console: one read-only query over the dataset's splits, each a table named by its split (when
     * no other config has a split of that name) and by `{config}/{split}`. DuckDB's parse of the text is
     * checked (viewer-sql-guard.ts: no file, table function, ATTACH, COPY, INSTALL, SET, PRAGMA...) and its
     * rendering runs on a connection of its own, interrupted after its time limit, within the query
     * instance's memory; at most `length` rows (≤ CONSOLE_MAX_ROWS) are answered from `offset`. `signal`
     * (the request's) interrupts the query when its caller goes away, e.g. the console's Cancel.
     */
    async sql(
      actor: RepoActor,
      id: string | undefined,
      text: string | undefined,
      range: Page,
      timeoutMs = CONSOLE_TIMEOUT_MS,
      signal?: AbortSignal,
    ) {
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > CONSOLE_TIMEOUT_MS) {
        throw new InvalidInputError(
          `Field 'timeout_ms' must be an integer between 1 and ${CONSOLE_TIMEOUT_MS}.`,
        );
      }
      if (!text?.trim()) throw new InvalidInputError("Field 'sql' is required: the query to run.");
      if (text.length > 20_000) throw new InvalidInputError("Field 'sql' is longer than 20,000 characters.");
      const repo = await dataset(actor, id);
      const result = await converted(repo);
      const tables = new Map<string, ConvertedSplit>();
      for (const split of result.splits) {
        tables.set(`${split.config}/${split.split}`, split);
        if (result.splits.filter((s) => s.split === split.split).length === 1) tables.set(split.split, split);
      }
      const parsed = await engine.parse(text);
      checkConsoleQuery(parsed, [...tables.keys()]);
      const rendered = await engine.render(parsed);
      const views: Record<string, string> = {};
      for (const [name, split] of tables) {
        views[name] = split.files.length
          ? await sources(repo, split).then((from) => `SELECT * FROM ${from}`)
          : "SELECT NULL AS empty WHERE false";
      }
      const { columns, rows } = await engine.session(
        views,
        timeoutMs,
        async (session) => ({
          columns: await session.columns(rendered),
          rows: await session.rows(
            `SELECT * FROM (${rendered}) LIMIT ${range.length + 1} OFFSET ${range.offset}`,
          ),
        }),
        signal,
      );
      return {
        columns,
        rows: rows.slice(0, range.length),
        offset: range.offset,
        truncated: rows.length > range.length,
        tables: [...tables.keys()],
      };
    },

    async parquet(actor: RepoActor, id: string | undefined, config?: string, splitName?: string) {
      const repo = await dataset(actor, id);
      const result = await converted(repo);
      const splits = result.splits.filter(
        (s) =>
          (config === undefined || s.config === config) && (splitName === undefined || s.split === splitName),
      );
      return {
        parquet_files: splits.flatMap((s) =>
          s.files.map((file) => ({
            dataset: repo.id,
            config: s.config,
            split: s.split,
            url: `${deps.publicUrl}/datasets/${repo.id}/resolve/${encodeURIComponent(PARQUET_REF)}/${file.path}`,
            filename: file.path.slice(file.path.lastIndexOf("/") + 1),
            size: file.size,
          })),
        ),
        pending: [],
        failed: [],
        partial: splits.some((s) => s.partial),
      };
    },

    async size(actor: RepoActor, id: string | undefined) {
      const repo = await dataset(actor, id);
      const result = await converted(repo);
      const sum = (splits: ConvertedSplit[], key: "originalBytes" | "parquetBytes" | "numRows") =>
        splits.reduce((total, s) => total + s[key], 0);
      const configs = [...new Set(result.splits.map((s) => s.config))];
      return {
        size: {
          dataset: {
            dataset: repo.id,
            num_bytes_original_files: sum(result.splits, "originalBytes"),
            num_bytes_parquet_files: sum(result.splits, "parquetBytes"),
            num_rows: sum(result.splits, "numRows"),
          },
          configs: configs.map((config) => {
            const of = result.splits.filter((s) => s.config === config);
            return {
              dataset: repo.id,
              config,
              num_bytes_original_files: sum(of, "originalBytes"),
              num_bytes_parquet_files: sum(of, "parquetBytes"),
              num_rows: sum(of, "numRows"),
              num_columns: of[0]?.features.length ?? 0,
            };
          }),
          splits: result.splits.map((s) => ({
            dataset: repo.id,
            config: s.config,
            split: s.split,
            num_bytes_parquet_files: s.parquetBytes,
            num_rows: s.numRows,
            num_columns: s.features.length,
          })),
        },
        pending: [],
        failed: [],
        partial: result.splits.some((s) => s.partial),
      };
    },

    /** The conversion's state for the hub's own page: queued, running, done or failed (with its reason). */
    async status(actor: RepoActor, id: string | undefined) {
      const repo = await dataset(actor, id);
      const job = await deps.viewer.job(repo);
      return job
        ? {
            status: job.status,
            commit: job.commitOid,
            convertedCommit: job.convertedOid ?? null,
            error: job.error ?? null,
          }
        : { status: "none", commit: null, convertedCommit: null, error: null };
    },
  };
}

export type ViewerApi = ReturnType<typeof createViewerApi>;
