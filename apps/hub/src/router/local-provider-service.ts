import { createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { AuditedTransactions } from "../audit/audit-log.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { RepoService } from "../repos/repo-service.js";
import { createLocalProviderTable, type LocalModelRow } from "./local-provider-table.js";
import { unaudited } from "./provider-audit.js";

/** What the local provider needs of the repositories: find a model and its files at main. */
export type LocalProviderRepos = Pick<RepoService, "find" | "resolve" | "files" | "fileAt">;

/**
 * A file's bytes wherever the hub keeps them: the blob store, or Xet chunks (what huggingface_hub uploads by
 * default); undefined when the hub holds neither.
 */
export type OpenModelFile = (
  repoKey: number,
  file: { path: string; sha256: string; size: number },
) => Promise<Readable | undefined>;

/**
 * A copied model file no enabled model resolves to any more is deleted once it is this old: a call that
 * resolved it a moment before the new commit still finds it (a loaded model keeps its mapping regardless).
 */
const STALE_COPY_GRACE_MS = 60_000;

/** How the router names one enabled (model, quantization) to the local provider's server. */
export function localServedName(modelId: string, quantization: string): string {
  return `${modelId}@${quantization}`;
}

/** A GGUF file's name holds the quantization as a word of its own (`model-Q4_K_M.gguf`, `model.F16.gguf`). */
function namesQuantization(path: string, quantization: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1).toUpperCase();
  if (!name.endsWith(".GGUF")) return false;
  const words = name.slice(0, -".GGUF".length).split(/[-.]/);
  return words.includes(quantization);
}

/**
 * The local provider's configuration (which repositories and quantizations it runs: admin API and CLI) and
 * its model files: a GGUF file of an enabled model is copied out of the blob store into `cacheDir` (named by
 * its sha256) the first time it is loaded, since llama.cpp reads a file path.
 */
export function localProviderService(deps: {
  db: Parameters<typeof createLocalProviderTable>[0];
  repos: () => LocalProviderRepos;
  /** Where model files are copied for llama.cpp (only where the provider runs). */
  cacheDir?: string;
  /** Reads a model file's bytes (only where the provider runs). */
  openFile?: OpenModelFile;
  /** Largest GGUF file the provider may be enabled for (LOCAL_PROVIDER_MAX_MODEL_BYTES). */
  maxModelBytes: number;
  onChanged?: () => void;
  /** Writes each change with its audit log entry (site admins read it); none: unaudited (the engine, which only reads; tests). */
  audited?: AuditedTransactions;
}) {
  const table = createLocalProviderTable(deps.db);
  const audited = deps.audited ?? unaudited(deps.db);

  async function modelAtMain(modelId: string) {
    const found = await deps.repos().find("model", modelId);
    if (!found) throw new NotFoundError(`No model repository ${modelId} on this hub.`);
    const main = await deps.repos().resolve(found.repo, "main");
    if (!main)
      throw new NotFoundError(`Model ${modelId} has no main branch yet: upload its GGUF file first.`);
    return { repo: found.repo, commitOid: main.commitOid };
  }

  /** Deletes copied files that are neither an enabled model's file at main nor recent. */
  async function pruneCopies(cacheDir: string): Promise<void> {
    const current = new Set<string>();
    for (const row of await table.list()) {
      const main = await modelAtMain(row.modelId).catch(() => undefined);
      const file = main && (await deps.repos().fileAt(main.repo, main.commitOid, row.filePath));
      if (file) current.add(`${file.sha256}.gguf`);
    }
    for (const name of await readdir(cacheDir)) {
      if (!name.endsWith(".gguf") || current.has(name)) continue;
      const path = join(cacheDir, name);
      const copied = await stat(path).catch(() => undefined);
      if (copied && Date.now() - copied.mtimeMs > STALE_COPY_GRACE_MS) await rm(path, { force: true });
    }
  }

  const service = {
    list: (): Promise<LocalModelRow[]> => table.list(),

    /** Enables a model's quantization: its GGUF file at main must exist, one file, within the size limit. */
    async enable(input: { model: string; quantization: string }, enabledBy: string): Promise<LocalModelRow> {
      const quantization = input.quantization.trim().toUpperCase();
      if (!/^[A-Z0-9_]{1,40}$/.test(quantization)) {
        throw new InvalidInputError(
          `Invalid quantization "${input.quantization}": give it as the file names it, e.g. Q4_K_M or F16.`,
        );
      }
      const { repo, commitOid } = await modelAtMain(input.model);
      const ggufs = (await deps.repos().files(repo, commitOid)).filter((file) =>
        file.path.toLowerCase().endsWith(".gguf"),
      );
      const matching = ggufs.filter((file) => namesQuantization(file.path, quantization));
      if (matching.length !== 1) {
        throw new InvalidInputError(
          `${matching.length === 0 ? "No" : "More than one"} GGUF file of ${input.model} names quantization ${quantization}` +
            ` (its GGUF files: ${ggufs.map((file) => file.path).join(", ") || "none"}). Split models are not supported.`,
        );
      }
      const file = matching[0]!;
      if (file.size > deps.maxModelBytes) {
        throw new InvalidInputError(
          `${file.path} is ${file.size} bytes, over this hub's LOCAL_PROVIDER_MAX_MODEL_BYTES (${deps.maxModelBytes}).`,
        );
      }
      const row: LocalModelRow = {
        modelId: repo.id,
        quantization,
        filePath: file.path,
        enabledBy,
        createdAt: new Date().toISOString(),
      };
      await audited.transaction(async (q, record) => {
        const inTx = createLocalProviderTable(q);
        const before = (await inTx.list()).find(
          (entry) => entry.modelId === row.modelId && entry.quantization === quantization,
        );
        await inTx.put(row);
        await record({
          action: "local-provider.enable",
          namespace: null,
          targetType: "local-model",
          target: localServedName(row.modelId, quantization),
          details: {
            filePath: file.path,
            ...(before && before.filePath !== file.path ? { previousFilePath: before.filePath } : {}),
          },
        });
      });
      deps.onChanged?.();
      return row;
    },

    async disable(
      model: string,
      quantization: string,
    ): Promise<{ model: string; quantization: string; disabled: true }> {
      const upper = quantization.trim().toUpperCase();
      await audited.transaction(async (q, record) => {
        if (!(await createLocalProviderTable(q).delete(model, upper))) {
          throw new NotFoundError(`The local provider does not run ${model} ${upper}.`);
        }
        await record({
          action: "local-provider.disable",
          namespace: null,
          targetType: "local-model",
          target: localServedName(model, upper),
        });
      });
      deps.onChanged?.();
      return { model, quantization: upper, disabled: true };
    },

    /** The enabled model's GGUF file on local disk (copied out of the hub on first use). */
    async modelPath(servedName: string): Promise<string> {
      const row = (await table.list()).find(
        (entry) => localServedName(entry.modelId, entry.quantization) === servedName,
      );
      if (!row) throw new NotFoundError(`The local provider does not run ${servedName}.`);
      const { repo, commitOid } = await modelAtMain(row.modelId);
      const file = await deps.repos().fileAt(repo, commitOid, row.filePath);
      if (!file)
        throw new NotFoundError(
          `${row.filePath} is no longer in ${row.modelId} at main: enable the model again.`,
        );
      // Checked again here: the file at main may have been replaced by a larger one since it was enabled
      // (its repository's writers are not the administrator who enabled it).
      if (file.size > deps.maxModelBytes) {
        throw new InvalidInputError(
          `${row.filePath} at main of ${row.modelId} is now ${file.size} bytes, over this hub's LOCAL_PROVIDER_MAX_MODEL_BYTES (${deps.maxModelBytes}): the local provider does not load it.`,
        );
      }
      const { cacheDir, openFile } = deps;
      if (!cacheDir || !openFile)
        throw new Error("The local provider does not run in this process (LOCAL_PROVIDER is off).");
      const path = join(cacheDir, `${file.sha256}.gguf`);
      if ((await stat(path).catch(() => undefined))?.size === file.size) return path;
      await mkdir(cacheDir, { recursive: true });
      const partial = `${path}.${process.pid}.${Date.now()}.partial`;
      try {
        const source = await openFile(repo.key, file);
        if (!source) {
          throw new NotFoundError(
            `The bytes of ${row.filePath} (${row.modelId} at main) are not on this hub: upload the file again.`,
          );
        }
        await pipeline(source, createWriteStream(partial));
        await rename(partial, path);
      } finally {
        await rm(partial, { force: true });
      }
      // A new file (a new commit, or a model enabled): copies of files no enabled model uses any more go, or
      // every commit of a model would leave a copy of its size on this disk.
      await pruneCopies(cacheDir).catch(() => {});
      return path;
    },
  };
  return service;
}

export type LocalProviderService = ReturnType<typeof localProviderService>;
