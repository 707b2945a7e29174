import { open } from "node:fs/promises";
import { AsyncMessageReader, Message, MessageHeader } from "apache-arrow";
import { AsyncRandomAccessFile } from "apache-arrow/io/file";
import { ArrowFileError } from "./viewer-arrow-error.js";

/**
 * The messages of an Arrow IPC stream or file, read one at a time with Apache Arrow's own message reader
 * (`AsyncMessageReader`: the framing, the flatbuffer `Message`, its body), each handed on as the bytes it has
 * in a stream. The schema is handed on as its bytes, never decoded here, so types the JS library does not
 * know still reach parquet-wasm. Loaded with the first Arrow file, not when the hub starts.
 */

const CONTINUATION = 0xffffffff;
const FILE_MAGIC = Buffer.from("ARROW1");
/** A message's metadata is a small flatbuffer; a larger length means the bytes are not an IPC stream. */
const MAX_METADATA_BYTES = 64 * 1024 ** 2;
/** parquet-wasm runs in 32-bit WebAssembly: one batch must fit there with its Parquet copy. */
const MAX_BATCH_BYTES = 1024 ** 3;

export interface IpcMessage {
  kind: "schema" | "dictionary" | "batch" | "other";
  /** The message as it stands in a stream: continuation, metadata length, metadata, body. */
  framed: Buffer;
  dictionaryId?: number;
  isDelta?: boolean;
}

/**
 * Arrow's message reader, keeping each message's metadata bytes as read (to hand them on unchanged) and
 * checking lengths against the file's size before reading, so that a truncated or foreign file is told
 * apart (and a garbage length never becomes an allocation).
 */
class FramedMessageReader extends AsyncMessageReader {
  /** The metadata bytes of the message `next()` returned last. */
  metadata: Uint8Array = new Uint8Array(0);

  constructor(
    private readonly file: AsyncRandomAccessFile,
    private readonly name: string,
  ) {
    super(file);
  }

  /** Throws the data's error when `bytes` more bytes are not in the file. */
  ensure(bytes: number, what: string) {
    const { position, size } = this.file;
    if (position + bytes > size) {
      throw new ArrowFileError(
        `${this.name} ends inside ${what} (byte ${size} of at least ${position + bytes}): the Arrow file is truncated.`,
      );
    }
  }

  protected override async readMetadataLength() {
    // The file may end at a message's end (pyarrow reads a stream without its end marker so), not inside a length.
    if (this.file.position < this.file.size) this.ensure(4, "a message's length");
    return super.readMetadataLength();
  }

  protected override async readMetadata(length: number): Promise<IteratorResult<Message>> {
    if (length < 0 || length > MAX_METADATA_BYTES) {
      throw new ArrowFileError(
        `${this.name} is not an Arrow IPC stream or file (a message of ${length} bytes of metadata at byte ${this.file.position}).`,
      );
    }
    this.ensure(length, "a message");
    const at = this.file.position;
    const metadata = await this.file.read(length);
    if (!metadata || metadata.byteLength < length)
      throw new ArrowFileError(`${this.name} could not be read whole (a message at byte ${at}).`);
    this.metadata = metadata;
    try {
      return { done: false, value: Message.decode(metadata) };
    } catch {
      throw new ArrowFileError(
        `${this.name} is not an Arrow IPC stream or file (unreadable message at byte ${at}).`,
      );
    }
  }
}

/** The messages of one Arrow IPC stream or file, in order, each read whole (at most one batch in memory). */
export async function* ipcMessages(path: string, name: string): AsyncGenerator<IpcMessage> {
  const handle = await open(path, "r");
  const file = new AsyncRandomAccessFile(handle, (await handle.stat()).size);
  try {
    // The file format: the magic and its padding, then a stream (its footer, after the stream's end, is not needed).
    const start = file.size >= 8 ? await file.read(8) : null;
    await file.seek(start && FILE_MAGIC.equals(start.subarray(0, 6)) ? 8 : 0);
    const reader = new FramedMessageReader(file, name);
    let first = true;
    for await (const message of reader) {
      if (first && message.headerType !== MessageHeader.Schema) {
        throw new ArrowFileError(
          `${name} is not an Arrow IPC stream or file (it does not start with a schema).`,
        );
      }
      first = false;
      const { bodyLength } = message;
      if (!(bodyLength >= 0 && bodyLength <= MAX_BATCH_BYTES)) {
        throw new ArrowFileError(
          `${name} holds a message of ${bodyLength} bytes; the viewer converts record batches of at most ${MAX_BATCH_BYTES} bytes (write the file in smaller batches).`,
        );
      }
      reader.ensure(bodyLength, "a record batch");
      const body = await reader.readMessageBody(bodyLength);
      const prefix = Buffer.alloc(8);
      prefix.writeUInt32LE(CONTINUATION, 0);
      prefix.writeInt32LE(reader.metadata.byteLength, 4);
      const framed = Buffer.concat([prefix, reader.metadata, body]);
      if (message.isDictionaryBatch()) {
        const dictionary = message.header();
        yield {
          kind: "dictionary",
          framed,
          dictionaryId: dictionary.id,
          isDelta: dictionary.isDelta,
        };
      } else {
        yield { kind: message.isSchema() ? "schema" : message.isRecordBatch() ? "batch" : "other", framed };
      }
    }
  } finally {
    await file.close();
  }
}
