import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ArrowFileError } from "./viewer-arrow-error.js";

export { ArrowFileError };

/**
 * Arrow IPC files (`.arrow`, as `Dataset.save_to_disk` and the `datasets` arrow builder write them) staged as
 * Parquet for DuckDB, which has no Arrow reader offline (docs/decisions/dataset-viewer.md, "Arrow files").
 *
 * The file is read message by message with Apache Arrow's own message reader (viewer-arrow-messages.ts);
 * record batches are grouped into chunks of about `chunkBytes`, each chunk handed to parquet-wasm (arrow-rs)
 * as a stream of its own (the schema, the dictionaries in force, its batches) and written as one Parquet file. Memory stays that of one chunk; every Arrow type arrow-rs
 * reads comes through as its Parquet type (the schema is passed on as its bytes, never decoded by the JS
 * library, so types it does not know still pass). Both IPC formats are read, as the library reads both
 * (`open_stream`, else `open_file`): the file format is the stream format between a magic and a footer.
 */

type ParquetWasm = typeof import("parquet-wasm");
let loadingWasm: Promise<ParquetWasm> | undefined;
/** parquet-wasm (5 MB of WebAssembly) is loaded on the first Arrow file, not when the hub starts. */
const parquetWasm = () => {
  loadingWasm ??= import("parquet-wasm");
  return loadingWasm;
};
let loadingMessages: Promise<typeof import("./viewer-arrow-messages.js")> | undefined;
/** apache-arrow too (about a quarter second of CPU to load). */
const arrowMessages = () => {
  loadingMessages ??= import("./viewer-arrow-messages.js");
  return loadingMessages;
};
const END_OF_STREAM = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

export interface StagedArrow {
  /** Parquet files holding the rows of the Arrow files, in order. */
  parts: string[];
  /** The first file's `huggingface` schema metadata (the `datasets` features), if it has one. */
  huggingface?: string;
}

/**
 * Writes the rows of Arrow IPC files (local paths, in order; `names` are how errors name them) as Parquet
 * files in `workDir`, a chunk of about `chunkBytes` of record batches each.
 */
export async function stageArrowFiles(
  paths: readonly string[],
  names: readonly string[],
  workDir: string,
  chunkBytes = 32 * 1024 ** 2,
): Promise<StagedArrow> {
  const wasm = await parquetWasm();
  const { ipcMessages } = await arrowMessages();
  const parts: string[] = [];
  let huggingface: string | undefined;
  for (const [file, path] of paths.entries()) {
    const name = names[file] ?? path;
    let schema: Buffer | undefined;
    /** Dictionaries in force, by id: the last replacement and the deltas after it. */
    const dictionaries = new Map<number, Buffer[]>();
    let batches: Buffer[] = [];
    let batchBytes = 0;
    let written = 0;
    const flush = async () => {
      if (!schema || (batches.length === 0 && written > 0)) return;
      const stream = Buffer.concat([schema, ...[...dictionaries.values()].flat(), ...batches, END_OF_STREAM]);
      batches = [];
      batchBytes = 0;
      let table: import("parquet-wasm").Table;
      try {
        table = wasm.Table.fromIPCStream(stream);
      } catch (error) {
        throw new ArrowFileError(`${name} could not be read as Arrow: ${String(error)}`);
      }
      if (file === 0 && written === 0) {
        const tableSchema = table.schema;
        huggingface = tableSchema.metadata().get("huggingface");
        tableSchema.free();
      }
      const properties = new wasm.WriterPropertiesBuilder()
        .setCompression(wasm.Compression.UNCOMPRESSED)
        .build();
      // writeParquet takes the table and the properties (frees them).
      const parquet = wasm.writeParquet(table, properties);
      const part = join(workDir, `arrow-${file}-${String(written).padStart(6, "0")}.parquet`);
      await writeFile(part, parquet);
      parts.push(part);
      written++;
    };
    for await (const message of ipcMessages(path, name)) {
      if (message.kind === "schema") {
        if (schema) throw new ArrowFileError(`${name} holds a second schema: it is not one Arrow stream.`);
        schema = message.framed;
      } else if (message.kind === "dictionary") {
        // Batches read so far decode with the dictionaries before this one.
        if (batches.length > 0) await flush();
        const id = message.dictionaryId ?? 0;
        dictionaries.set(
          id,
          message.isDelta ? [...(dictionaries.get(id) ?? []), message.framed] : [message.framed],
        );
      } else if (message.kind === "batch") {
        batches.push(message.framed);
        batchBytes += message.framed.length;
        if (batchBytes >= chunkBytes) await flush();
      }
    }
    if (!schema) throw new ArrowFileError(`${name} is empty: an Arrow file starts with its schema.`);
    // The last batches, or a file of no rows (its schema still makes the split's columns).
    await flush();
  }
  return { parts, ...(huggingface ? { huggingface } : {}) };
}
