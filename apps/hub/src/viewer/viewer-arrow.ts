import { type FileHandle, open, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Arrow IPC files (`.arrow`, as `Dataset.save_to_disk` and the `datasets` arrow builder write them) staged as
 * Parquet for DuckDB, which has no Arrow reader offline (docs/decisions/dataset-viewer.md, "Arrow files").
 *
 * The file is read message by message (the IPC framing only: a length, a flatbuffer `Message` whose
 * `bodyLength` says how many body bytes follow); record batches are grouped into chunks of about
 * `chunkBytes`, each chunk handed to parquet-wasm (arrow-rs) as a stream of its own (the schema, the
 * dictionaries in force, its batches) and written as one Parquet file. Memory stays that of one chunk; every
 * Arrow type arrow-rs reads comes through as its Parquet type. Both IPC formats are read, as the library
 * reads both (`open_stream`, else `open_file`): the file format is the stream format between a magic and a
 * footer.
 */

/** A file that is not a whole Arrow IPC stream or file (truncated, or something else): the data's error. */
export class ArrowFileError extends Error {
  override name = "ArrowFileError";
}

const CONTINUATION = 0xffffffff;
const FILE_MAGIC = Buffer.from("ARROW1");
/** MessageHeader union members (Message.fbs). */
const SCHEMA = 1;
const DICTIONARY_BATCH = 2;
const RECORD_BATCH = 3;
/** A message's metadata is a small flatbuffer; a larger length means the bytes are not an IPC stream. */
const MAX_METADATA_BYTES = 64 * 1024 ** 2;
/** parquet-wasm runs in 32-bit WebAssembly: one batch must fit there with its Parquet copy. */
const MAX_BATCH_BYTES = 1024 ** 3;
const END_OF_STREAM = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

interface IpcMessage {
  header: number;
  /** The message as it stands in a stream: continuation, metadata length, metadata, body. */
  framed: Buffer;
  bodyLength: number;
  dictionaryId?: bigint;
  isDelta?: boolean;
}

/** The fields of one flatbuffer table, read from its vtable (absent fields: undefined). */
function flatTable(buffer: Buffer, tablePosition: number) {
  const vtable = tablePosition - buffer.readInt32LE(tablePosition);
  const vtableBytes = buffer.readUInt16LE(vtable);
  const field = (index: number) => {
    const slot = 4 + 2 * index;
    const offset = slot < vtableBytes ? buffer.readUInt16LE(vtable + slot) : 0;
    return offset === 0 ? undefined : tablePosition + offset;
  };
  return {
    uint8: (index: number) => {
      const at = field(index);
      return at === undefined ? 0 : buffer.readUInt8(at);
    },
    int64: (index: number) => {
      const at = field(index);
      return at === undefined ? 0n : buffer.readBigInt64LE(at);
    },
    table: (index: number) => {
      const at = field(index);
      return at === undefined ? undefined : flatTable(buffer, at + buffer.readUInt32LE(at));
    },
  };
}

/** The message header's kind and body length (and a dictionary batch's id and delta flag). */
function parseMessage(metadata: Buffer) {
  const message = flatTable(metadata, metadata.readUInt32LE(0));
  const header = message.uint8(1);
  const bodyLength = message.int64(3);
  if (header === DICTIONARY_BATCH) {
    const dictionary = message.table(2);
    return {
      header,
      bodyLength,
      dictionaryId: dictionary?.int64(0) ?? 0n,
      isDelta: (dictionary?.uint8(2) ?? 0) !== 0,
    };
  }
  return { header, bodyLength };
}

/** The messages of one Arrow IPC stream or file, in order, each read whole (at most one batch in memory). */
async function* ipcMessages(path: string, name: string): AsyncGenerator<IpcMessage> {
  const handle: FileHandle = await open(path, "r");
  try {
    const size = (await handle.stat()).size;
    let position = 0;
    const read = async (bytes: number, what: string) => {
      if (position + bytes > size) {
        throw new ArrowFileError(
          `${name} ends inside ${what} (byte ${size} of at least ${position + bytes}): the Arrow file is truncated.`,
        );
      }
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, position);
      if (bytesRead !== bytes)
        throw new ArrowFileError(`${name} could not be read whole (${bytesRead} of ${bytes} bytes).`);
      position += bytes;
      return buffer;
    };
    if (size >= 8) {
      const start = await read(8, "its first bytes");
      // The file format: the magic and its padding, then a stream (its footer, after the stream's end, is not needed).
      if (!start.subarray(0, 6).equals(FILE_MAGIC)) position = 0;
    }
    let first = true;
    // A stream may end at a message's end without its end marker: pyarrow reads it so.
    while (position < size) {
      const word = (await read(4, "a message's length")).readUInt32LE(0);
      // Streams since Arrow 0.15 put a continuation marker first; older ones only the length.
      const length = word === CONTINUATION ? (await read(4, "a message's length")).readInt32LE(0) : word | 0;
      if (length === 0) return;
      if (length < 0 || length > MAX_METADATA_BYTES) {
        throw new ArrowFileError(
          `${name} is not an Arrow IPC stream or file (a message of ${length} bytes of metadata at byte ${position}).`,
        );
      }
      const metadata = await read(length, "a message");
      let parsed: ReturnType<typeof parseMessage>;
      try {
        parsed = parseMessage(metadata);
      } catch {
        throw new ArrowFileError(
          `${name} is not an Arrow IPC stream or file (unreadable message at byte ${position - length}).`,
        );
      }
      if (first && parsed.header !== SCHEMA) {
        throw new ArrowFileError(
          `${name} is not an Arrow IPC stream or file (it does not start with a schema).`,
        );
      }
      first = false;
      if (parsed.bodyLength < 0n || parsed.bodyLength > BigInt(MAX_BATCH_BYTES)) {
        throw new ArrowFileError(
          `${name} holds a message of ${parsed.bodyLength} bytes; the viewer converts record batches of at most ${MAX_BATCH_BYTES} bytes (write the file in smaller batches).`,
        );
      }
      const bodyLength = Number(parsed.bodyLength);
      const body = await read(bodyLength, "a record batch");
      const prefix = Buffer.alloc(8);
      prefix.writeUInt32LE(CONTINUATION, 0);
      prefix.writeInt32LE(length, 4);
      yield { ...parsed, bodyLength, framed: Buffer.concat([prefix, metadata, body]) };
    }
  } finally {
    await handle.close();
  }
}

type ParquetWasm = typeof import("parquet-wasm");
let loadingWasm: Promise<ParquetWasm> | undefined;
/** parquet-wasm (5 MB of WebAssembly) is loaded on the first Arrow file, not when the hub starts. */
const parquetWasm = () => {
  loadingWasm ??= import("parquet-wasm");
  return loadingWasm;
};

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
  const parts: string[] = [];
  let huggingface: string | undefined;
  for (const [file, path] of paths.entries()) {
    const name = names[file] ?? path;
    let schema: Buffer | undefined;
    /** Dictionaries in force, by id: the last replacement and the deltas after it. */
    const dictionaries = new Map<bigint, Buffer[]>();
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
      if (message.header === SCHEMA) {
        if (schema) throw new ArrowFileError(`${name} holds a second schema: it is not one Arrow stream.`);
        schema = message.framed;
      } else if (message.header === DICTIONARY_BATCH) {
        // Batches read so far decode with the dictionaries before this one.
        if (batches.length > 0) await flush();
        const id = message.dictionaryId ?? 0n;
        dictionaries.set(
          id,
          message.isDelta ? [...(dictionaries.get(id) ?? []), message.framed] : [message.framed],
        );
      } else if (message.header === RECORD_BATCH) {
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
