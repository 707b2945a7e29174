import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { createWorkerPool } from "../jobs/worker-pool.js";
import { type Logger, silentLogger } from "../logger.js";
import type { FileRecord, RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import { branchRef } from "../repos/revision.js";
import { type ConfigFiles, DataFilesError, FOLDER_FORMATS, findDataFiles, formatOf } from "./data-files.js";
import { downloadContent } from "./viewer-download.js";
import { sqlIdentifier, sqlString, type ViewerEngine } from "./viewer-engine.js";
import { convertFolderSplit, folderPlan } from "./viewer-folders.js";
import { buildFullTextIndex, FULLTEXT_VERSION, searchableColumns, stemmerOf } from "./viewer-fulltext.js";
import type { ConversionResult, ConvertedSplit, Stemmer } from "./viewer-records.js";
import { splitStatistics } from "./viewer-statistics.js";
import type { ViewerJob, ViewerTable } from "./viewer-table.js";

/** Where the hub keeps each dataset's Parquet files, as the public hub does. */
export const PARQUET_REF = "refs/convert/parquet";
/** A split's name from its output folder (`.../out/{config}/{split}`), for messages. */
const splitName = (outDir: string) => outDir.slice(outDir.lastIndexOf("/") + 1);
/** The public viewer converts the first 5 GB of a split; a larger one is marked partial. */
const SPLIT_LIMIT_BYTES = 5 * 1000 ** 3;
/** About 500 MB per Parquet file, as the public hub's. */
const PARQUET_FILE_BYTES = 500 * 1000 ** 2;
const CONVERTER = "parquet-converter";
/**
 * An index or Parquet cache file no dataset lists is removed once this old (a build or a conversion lists its
 * file right after writing it).
 */
const UNLISTED_INDEX_GRACE_MS = 24 * 3600_000;

export interface ViewerServiceDeps {
  table: ViewerTable;
  repos: RepoService;
  engine: ViewerEngine;
  /** A content's bytes (blob store or Xet), or undefined when the hub does not hold them. */
  openContent(
    repoKey: number,
    file: Pick<FileRecord, "sha256" | "size" | "path">,
  ): Promise<Readable | undefined>;
  /** Scratch space of conversions. */
  workDir: string;
  /** Where splits' full-text indexes are kept (default: `fulltext` beside the Parquet cache). */
  fullTextDir?: string;
  concurrency?: number;
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
  splitLimitBytes?: number;
  /** How often an idle worker looks for index files of deleted datasets to remove (default 10 minutes). */
  sweepMs?: number;
  workerId?: string;
  logger?: Logger;
  now?: () => Date;
}

/**
 * The dataset viewer's conversions: a commit to a dataset's main branch queues its conversion (one job per
 * repository, in the database: replicas share it through leases and a restart resumes it, as the scanner's
 * queue); a worker finds its configs and splits as the `datasets` library does, converts each split to Parquet
 * with the engine and commits the files to `refs/convert/parquet`, or records why it could not.
 */
export function createViewerService(deps: ViewerServiceDeps) {
  const { table, repos, engine } = deps;
  const now = deps.now ?? (() => new Date());
  const logger = deps.logger ?? silentLogger;
  const concurrency = Math.max(1, deps.concurrency ?? 1);
  const leaseMs = deps.leaseMs ?? 10 * 60_000;
  const pollMs = deps.pollMs ?? 5_000;
  const maxAttempts = deps.maxAttempts ?? 3;
  const splitLimit = deps.splitLimitBytes ?? SPLIT_LIMIT_BYTES;
  const workerId = deps.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const iso = (offsetMs = 0) => new Date(now().getTime() + offsetMs).toISOString();
  const fullTextDir = deps.fullTextDir ?? join(dirname(engine.parquetDir), "fulltext");
  /**
   * A split's index file is named by what it is built from (index version, stemmer, columns, the split's
   * Parquet files): a new conversion with other files gets another file, and the same files share one.
   */
  const indexKeyOf = (split: ConvertedSplit, stemmer: Stemmer) =>
    createHash("sha256")
      .update(
        JSON.stringify([
          FULLTEXT_VERSION,
          stemmer,
          searchableColumns(split.features),
          split.files.map((file) => file.sha256),
        ]),
      )
      .digest("hex");
  const indexPath = (key: string) => join(fullTextDir, `${key}.sqlite`);
  /** When index files of deleted datasets were last looked for (sweepIndexFiles, from the worker's polls). */
  let sweptAt = 0;
  const sweepMs = deps.sweepMs ?? 10 * 60_000;
  /** Index builds under way, by file: a second request for the same index waits for the first build. */
  const building = new Map<string, Promise<string>>();

  const workers = createWorkerPool({
    concurrency,
    pollMs,
    workOne: () => processOne(),
    onError: (error) => logger.log("error", "dataset conversion worker failed", { error: String(error) }),
  });
  const kick = workers.kick;

  /** A file's content to `to` (at most `limitBytes`, cut at a line break), IO errors retried. */
  function download(repoKey: number, file: FileRecord, to: string, limitBytes?: number) {
    return downloadContent(
      () => deps.openContent(repoKey, file),
      to,
      `${file.path} (sha256:${file.sha256})`,
      {
        limitBytes,
      },
    );
  }

  /** A split in a line, JSON or Parquet format: its files copied (the first 5 GB) and converted in one go. */
  async function convertFiles(
    repo: RepoRecord,
    config: ConfigFiles,
    paths: readonly string[],
    byPath: ReadonlyMap<string, FileRecord>,
    work: string,
    outDir: string,
  ) {
    const inputs: string[] = [];
    let originalBytes = 0;
    let partial = false;
    for (const [index, path] of paths.entries()) {
      const file = byPath.get(path)!;
      const room = splitLimit - originalBytes;
      // Past the split's limit, the first bytes of a file in a line format (CSV, TSV, JSON Lines,
      // text) are converted up to its last whole line; other formats (Parquet, Arrow, JSON) only whole, or
      // not at all.
      const lineFormat = config.format !== "parquet" && config.format !== "arrow" && !/\.json$/i.test(path);
      if (file.size > room && (originalBytes > 0 || lineFormat)) {
        partial = true;
        if (!lineFormat || room <= 0) break;
      }
      const extension = formatOf(path) === "json" ? path.slice(path.lastIndexOf(".")) : `.${config.format}`;
      const local = join(work, `in-${inputs.length}-${index}${extension}`);
      const copied = await download(repo.key, file, local, file.size > room && lineFormat ? room : undefined);
      originalBytes += copied.bytes;
      inputs.push(local);
      if (partial) break;
    }
    let written: Awaited<ReturnType<ViewerEngine["convert"]>>;
    try {
      written = await engine.convert(config.format, inputs, outDir, PARQUET_FILE_BYTES, paths);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DataFilesError(
        `Config ${config.config}, split ${splitName(outDir)} (${paths.join(", ")}): ${reason}`,
      );
    }
    for (const input of inputs) await rm(input, { force: true });
    return { written, originalBytes, partial };
  }

  /** A split of an image or audio folder (viewer-folders.ts); a broken metadata file is the data's error. */
  async function convertFolder(
    repo: RepoRecord,
    config: ConfigFiles,
    paths: readonly string[],
    files: readonly FileRecord[],
    work: string,
    outDir: string,
  ) {
    const byPath = new Map(files.map((file) => [file.path, file]));
    const copyErrors = new Set<unknown>();
    const scratch = await mkdtemp(join(work, "folder-"));
    try {
      return await convertFolderSplit(engine, {
        format: config.format,
        plan: folderPlan(config),
        paths,
        repoPaths: new Set(byPath.keys()),
        sizeOf: (path) => byPath.get(path)!.size,
        async download(path, to) {
          try {
            return (await download(repo.key, byPath.get(path)!, to)).bytes;
          } catch (error) {
            copyErrors.add(error);
            throw error;
          }
        },
        work: scratch,
        outDir,
        fileBytes: PARQUET_FILE_BYTES,
        limitBytes: splitLimit,
      });
    } catch (error) {
      // Copies that failed are the store's trouble (retried); anything else is the data's (recorded).
      if (copyErrors.has(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new DataFilesError(`Config ${config.config}, split ${splitName(outDir)}: ${reason}`);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Converts one commit of a dataset: the splits and their Parquet files on refs/convert/parquet. */
  async function convert(repo: RepoRecord, commitOid: string): Promise<ConversionResult> {
    const files = await repos.files(repo, commitOid);
    const byPath = new Map(files.map((file) => [file.path, file]));
    const readme = byPath.get("README.md");
    const readmeText = readme ? await repos.readText(readme) : undefined;
    const configs = findDataFiles(
      files.map((file) => file.path),
      readmeText,
    );
    const stemmer = stemmerOf(readmeText);
    if (configs.length === 0) {
      throw new DataFilesError(
        "The dataset holds no CSV, TSV, JSON, JSON Lines, Parquet or Arrow file to show.",
      );
    }
    const work = await mkdtemp(join(deps.workDir, "convert-"));
    try {
      const splits: ConvertedSplit[] = [];
      const committed: FileRecord[] = [];
      for (const config of configs) {
        for (const split of config.splits) {
          const outDir = join(work, "out", config.config, split.split);
          const { written, originalBytes, partial } = FOLDER_FORMATS.has(config.format)
            ? await convertFolder(repo, config, split.paths, files, work, outDir)
            : await convertFiles(repo, config, split.paths, byPath, work, outDir);
          const features = written[0] ? await engine.features(written[0].localPath) : [];
          const numRows = written.reduce((sum, file) => sum + file.numRows, 0);
          // Statistics are computed once here, not per request; a failure leaves the split without them.
          const statistics = await splitStatistics(
            engine.inspect,
            written.map((file) => file.localPath),
            features,
            numRows,
          ).catch((error: unknown) => {
            logger.log("warn", "dataset statistics failed", {
              repo: repo.id,
              split: `${config.config}/${split.split}`,
              reason: error instanceof Error ? error.message : String(error),
            });
            return undefined;
          });
          const stored: ConvertedSplit["files"] = [];
          for (const [index, part] of written.entries()) {
            const size = (await stat(part.localPath)).size;
            const info = await repos.putBlob(createReadStream(part.localPath), { size });
            const path = `${config.config}/${split.split}/${String(index).padStart(4, "0")}.parquet`;
            committed.push(repos.lfsFile(path, info.sha256, info.size));
            stored.push({ path, sha256: info.sha256, size: info.size, numRows: part.numRows });
            // Kept in the query cache: the first reads need not fetch it back from the blob store. Listed, so
            // that it is removed when no conversion of the dataset uses it (pruneParquetFiles).
            await rename(part.localPath, join(engine.parquetDir, `${info.sha256}.parquet`)).catch(() => {});
            await table.recordParquetFile(repo.key, info.sha256, iso());
          }
          const converted: ConvertedSplit = {
            config: config.config,
            split: split.split,
            features,
            numRows,
            originalBytes,
            parquetBytes: stored.reduce((sum, file) => sum + file.size, 0),
            partial,
            files: stored,
            stemmer,
            ...(FOLDER_FORMATS.has(config.format) ? { mediaInRepository: true } : {}),
            ...(statistics ? { statistics } : {}),
          };
          // Indexed now, off the request path; a failure is retried when /search first needs the index.
          // Listed for this dataset even when another dataset of the same content built it first: each
          // dataset's list keeps the file while that dataset uses it (pruneIndexFiles).
          await fullTextIndex(repo, converted, stemmer)
            .then(async (path) => {
              if (path) await table.recordIndexFile(repo.key, indexKeyOf(converted, stemmer), iso());
            })
            .catch((error: unknown) => {
              logger.log("warn", "dataset full-text index failed", {
                repo: repo.id,
                split: `${config.config}/${split.split}`,
                reason: error instanceof Error ? error.message : String(error),
              });
            });
          splits.push(converted);
        }
      }
      const result = await repos.replaceRefTree(repo, PARQUET_REF, committed, {
        title: `Update parquet files (commit ${commitOid.slice(0, 7)})`,
        author: CONVERTER,
      });
      return { splits, parquetCommit: result.commit.oid, sourceCommit: commitOid };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async function runClaimed(job: ViewerJob): Promise<void> {
    const renew = setInterval(() => {
      table.renewLease(job.repoKey, workerId, iso(leaseMs)).catch(() => {});
    }, leaseMs / 3);
    renew.unref();
    try {
      const repo = await repos.byKey(job.repoKey);
      if (!repo) {
        await table.finish(job.repoKey, workerId, {
          commitOid: job.commitOid,
          now: iso(),
          error: "The repository is gone.",
        });
        return;
      }
      try {
        const result = await convert(repo, job.commitOid);
        if (await table.finish(job.repoKey, workerId, { commitOid: job.commitOid, now: iso(), result })) {
          // The previous revision's index and Parquet cache files are no longer read by anyone.
          await pruneIndexFiles(job.repoKey, result);
          await pruneParquetFiles(job.repoKey, result);
        }
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        // A broken file fails the same way every time: recorded at once. Anything else is retried.
        if (error instanceof DataFilesError || job.attempts >= maxAttempts) {
          logger.log("warn", "dataset conversion failed", { repo: repo.id, reason });
          if (
            await table.finish(job.repoKey, workerId, { commitOid: job.commitOid, now: iso(), error: reason })
          ) {
            // The result they indexed was replaced by the error: nothing searches or reads them any more.
            await pruneIndexFiles(job.repoKey, undefined);
            await pruneParquetFiles(job.repoKey, undefined);
          }
        } else {
          logger.log("warn", "dataset conversion failed, retrying", { repo: repo.id, reason });
          await table.release(job.repoKey, workerId);
        }
      }
    } finally {
      clearInterval(renew);
    }
  }

  async function processOne(): Promise<boolean> {
    const job = await table.claim(workerId, iso(), iso(leaseMs));
    if (!job) {
      if (now().getTime() - sweptAt >= sweepMs) {
        sweptAt = now().getTime();
        await sweepIndexFiles().catch((error: unknown) =>
          logger.log("warn", "removing index files of deleted datasets failed", { reason: String(error) }),
        );
        await sweepParquetFiles().catch((error: unknown) =>
          logger.log("warn", "removing Parquet cache files of deleted datasets failed", {
            reason: String(error),
          }),
        );
      }
      return false;
    }
    await runClaimed(job);
    return true;
  }

  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );

  /** The Parquet file of a converted split as a local path the engine may read (fetched once into the cache). */
  async function localParquet(
    file: { sha256: string; size: number; path: string },
    repoKey: number,
  ): Promise<string> {
    const local = join(engine.parquetDir, `${file.sha256}.parquet`);
    if (
      await stat(local).then(
        () => true,
        () => false,
      )
    )
      return local;
    await mkdir(engine.parquetDir, { recursive: true });
    const partial = `${local}.${randomBytes(4).toString("hex")}.part`;
    try {
      await download(repoKey, { ...file, blobOid: "", lfs: true }, partial);
      await rename(partial, local);
    } finally {
      await rm(partial, { force: true });
    }
    // Listed for the dataset that read it: this replica's copy goes when no conversion of it uses the file.
    await table.recordParquetFile(repoKey, file.sha256, iso());
    return local;
  }

  /**
   * The local file of a split's full-text index, or undefined when the split has no text column. Built when
   * missing (a split converted before indexes existed, a replica that did not convert it, a wiped cache):
   * from the split's Parquet files, streamed, one build per index at a time.
   */
  async function fullTextIndex(
    repo: RepoRecord,
    split: ConvertedSplit,
    stemmer: Stemmer,
  ): Promise<string | undefined> {
    const columns = searchableColumns(split.features);
    if (columns.length === 0) return undefined;
    const key = indexKeyOf(split, stemmer);
    const path = indexPath(key);
    if (await exists(path)) return path;
    let build = building.get(path);
    if (!build) {
      build = (async () => {
        const locals: string[] = [];
        for (const file of split.files) locals.push(await localParquet(file, repo.key));
        const text = `concat_ws(' ', ${columns.map((name) => `CAST(${sqlIdentifier(name)} AS VARCHAR)`).join(", ")})`;
        async function* texts() {
          // File by file, each in its own order: the stream's position is the row's index in the split.
          for (const local of locals) {
            yield* engine.streamTexts(`SELECT ${text} FROM read_parquet(${sqlString(local)})`);
          }
        }
        await buildFullTextIndex(path, stemmer, texts());
        // Listed, so that it is removed when no conversion of the dataset uses it (pruneIndexFiles).
        await table.recordIndexFile(repo.key, key, iso());
        return path;
      })().finally(() => building.delete(path));
      building.set(path, build);
    }
    return build;
  }

  /**
   * Removes a dataset's index files that `result` (its latest conversion; none after a failure or when the
   * dataset is gone) does not use, unless another dataset of the same content uses them.
   */
  async function pruneIndexFiles(repoKey: number, result: ConversionResult | undefined): Promise<string[]> {
    const keep = new Set((result?.splits ?? []).map((split) => indexKeyOf(split, split.stemmer ?? "none")));
    const stale = (await table.indexFiles(repoKey)).filter((key) => !keep.has(key));
    if (stale.length === 0) return [];
    const unused = await table.forgetIndexFiles(repoKey, stale);
    for (const key of unused) await rm(indexPath(key), { force: true });
    return unused;
  }

  /**
   * Removes a dataset's Parquet cache files that `result` does not read (none after a failure or when the
   * dataset is gone), unless another dataset of the same content lists them. The blobs on
   * refs/convert/parquet are the repository's; only this disk's copies go.
   */
  async function pruneParquetFiles(repoKey: number, result: ConversionResult | undefined): Promise<string[]> {
    const keep = new Set((result?.splits ?? []).flatMap((split) => split.files.map((file) => file.sha256)));
    const stale = (await table.parquetFiles(repoKey)).filter((sha256) => !keep.has(sha256));
    if (stale.length === 0) return [];
    const unused = await table.forgetParquetFiles(repoKey, stale);
    for (const sha256 of unused) await rm(join(engine.parquetDir, `${sha256}.parquet`), { force: true });
    return unused;
  }

  /**
   * The Parquet cache files of deleted datasets, removed; and files of the cache no dataset lists, once old
   * enough not to be a conversion's about to be listed (copies cached before the list existed, which a read
   * fetches and lists again; a fetch that crashed).
   */
  async function sweepParquetFiles(): Promise<string[]> {
    const removed: string[] = [];
    for (const repoKey of await table.parquetFileRepos()) {
      if (!(await repos.byKey(repoKey))) removed.push(...(await pruneParquetFiles(repoKey, undefined)));
    }
    const listed = new Set(await table.allParquetFiles());
    const names = await readdir(engine.parquetDir).catch(() => [] as string[]);
    for (const name of names) {
      const key = name.slice(0, name.indexOf("."));
      if (listed.has(key) && name === `${key}.parquet`) continue;
      const modified = await stat(join(engine.parquetDir, name)).then(
        (info) => info.mtimeMs,
        () => undefined,
      );
      if (modified !== undefined && now().getTime() - modified > UNLISTED_INDEX_GRACE_MS) {
        await rm(join(engine.parquetDir, name), { force: true });
        removed.push(key);
      }
    }
    return removed;
  }

  /**
   * The index files of deleted datasets (their rows outlive them: no foreign key), removed; and files of this
   * directory no dataset lists, once old enough not to be a build about to be listed (files of an earlier
   * index version, or left by a build that crashed).
   */
  async function sweepIndexFiles(): Promise<string[]> {
    const removed: string[] = [];
    for (const repoKey of await table.indexFileRepos()) {
      if (!(await repos.byKey(repoKey))) removed.push(...(await pruneIndexFiles(repoKey, undefined)));
    }
    const listed = new Set(await table.allIndexFiles());
    const names = await readdir(fullTextDir).catch(() => [] as string[]);
    for (const name of names) {
      const key = name.slice(0, name.indexOf("."));
      if (listed.has(key) && name === `${key}.sqlite`) continue;
      const modified = await stat(join(fullTextDir, name)).then(
        (info) => info.mtimeMs,
        () => undefined,
      );
      if (modified !== undefined && now().getTime() - modified > UNLISTED_INDEX_GRACE_MS) {
        await rm(join(fullTextDir, name), { force: true });
        removed.push(key);
      }
    }
    return removed;
  }

  /** The stemmer of a split's index: recorded at conversion, or read from the converted commit's card. */
  async function stemmerOfSplit(repo: RepoRecord, result: ConversionResult, split: ConvertedSplit) {
    if (split.stemmer) return split.stemmer;
    const readme = (await repos.files(repo, result.sourceCommit)).find((file) => file.path === "README.md");
    return stemmerOf(readme ? await repos.readText(readme) : undefined);
  }

  return {
    workerId,
    localParquet,

    /** A split's full-text index (see fullTextIndex), or undefined when it has no text column to search. */
    async searchIndex(
      repo: RepoRecord,
      result: ConversionResult,
      split: ConvertedSplit,
    ): Promise<string | undefined> {
      return fullTextIndex(repo, split, await stemmerOfSplit(repo, result, split));
    },

    /**
     * A dataset's main branch moved: its conversion is queued (the files are not looked at here). The head is
     * read again, not taken from the move: of two racing moves, the later queue entry must be the newer head.
     */
    async mainMoved(repo: RepoRecord): Promise<void> {
      if (repo.type !== "dataset") return;
      const head = await repos.refTarget(repo, branchRef("main"));
      if (!head) return;
      await table.enqueue(repo.key, head, iso());
      kick();
    },

    /** The repository's conversion job (its state, last result or error), or undefined if never queued. */
    job: (repo: RepoRecord) => table.get(repo.key),

    async start(): Promise<void> {
      if (workers.running) return;
      await mkdir(deps.workDir, { recursive: true });
      workers.start();
    },

    stop: (): Promise<void> => workers.stop(),

    /** Converts until nothing is left to claim (tests); returns how many jobs ran. */
    async drain(): Promise<number> {
      await mkdir(deps.workDir, { recursive: true });
      let ran = 0;
      while (await processOne()) ran++;
      return ran;
    },

    status: () => table.counts(),

    /** Removes the index files of deleted datasets now (the workers do it every `sweepMs` when idle). */
    sweepIndexFiles,
    /** Removes the Parquet cache files of deleted datasets now (the workers do it every `sweepMs` when idle). */
    sweepParquetFiles,
  };
}

export type ViewerService = ReturnType<typeof createViewerService>;
