import { type FileHandle, open } from "node:fs/promises";
import type { Context } from "hono";

/**
 * Bytes per read of a file answer, and how many buffers one answer cycles through. 1 MiB reads, as the bare
 * node:http floor's fs stream makes: half the reads, promises and socket writes per GiB of 512 KiB ones, which
 * cost a download ~0.1 CPU s/GiB more (bench/results/2026-11-30-serve-2.md).
 */
const CHUNK_BYTES = 1024 * 1024;
const BUFFERS = 6;

/**
 * A file's bytes `range.start..range.end` (inclusive) as the body of an HTTP answer, read into a few buffers
 * reused in turn instead of a fresh buffer per read. Every fresh read buffer is external memory, and V8
 * collects the young generation every few MiB of it: a download through fs.createReadStream and
 * Readable.toWeb spent about half of the hub's CPU in the collector (bench/results/2026-11-29-serve.md).
 *
 * One read runs ahead: when the writer takes a chunk, the next one is already being read, so the disk read
 * overlaps the socket write instead of following it (an fs stream reads ahead the same way; without it every
 * chunk waited for its read after the previous chunk's 'drain', bench/results/2026-11-30-serve-2.md).
 *
 * Reuse is safe for the node server's writer (@hono/node-server): the stream is pull-driven (high-water mark
 * 0, so a read is asked for only when the writer asks), and the writer hands each chunk to the socket before it
 * asks for the next one, waiting for 'drain' (every earlier chunk handed to the kernel) whenever the socket did
 * not take the chunk at once. It holds at most four chunks before its first wait (the reads it makes before
 * sending the headers), and one more is being read ahead: five buffers in use at most, so a buffer is
 * overwritten only BUFFERS (six) reads after it was handed out. Not for a reader that keeps every chunk
 * (`Response.arrayBuffer()` on a large file): the blob store's stream is for that.
 *
 * The file is opened on the first read, so an answer whose body is never read (HEAD) opens nothing; it is
 * closed at the end, on an error and when the client goes away (cancel), once a read still running is over.
 */
export function fileResponseBody(
  path: string,
  range: { start: number; end: number },
  /** Called once when the answer is over (sent, failed or cancelled): a mirrored cache read's release. */
  onEnd?: () => void,
): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined;
  let position = range.start;
  let turn = 0;
  const buffers: Buffer[] = [];
  /** The read of the chunk after the one last handed out, or undefined once the range is read. */
  let ahead: Promise<Buffer> | undefined;
  let ended = false;

  /** Starts reading the next chunk of the range into the next buffer in turn; undefined past the range. */
  const readNext = (file: FileHandle): Promise<Buffer> | undefined => {
    if (position > range.end) return undefined;
    const index = turn++ % BUFFERS;
    buffers[index] ??= Buffer.allocUnsafeSlow(CHUNK_BYTES);
    const buffer = buffers[index]!;
    const at = position;
    const length = Math.min(CHUNK_BYTES, range.end + 1 - at);
    position += length;
    const read = (async () => {
      // A regular file answers a read whole up to its end; loop all the same, a short read is not an error.
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await file.read(buffer, filled, length - filled, at + filled);
        if (bytesRead === 0) {
          throw new Error(
            `${path} ends at byte ${at + filled}, before byte ${range.end}: it is shorter than recorded.`,
          );
        }
        filled += bytesRead;
      }
      return buffer.subarray(0, length);
    })();
    // Its failure is reported when the writer asks for it; a client gone by then never asks.
    read.catch(() => {});
    return read;
  };

  const close = async () => {
    const running = ahead;
    ahead = undefined;
    await running?.catch(() => {});
    const open = handle;
    handle = undefined;
    if (!ended) {
      ended = true;
      onEnd?.();
    }
    await open?.close();
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          handle ??= await open(path, "r");
          const current = ahead ?? readNext(handle);
          ahead = readNext(handle);
          const chunk = await current;
          if (chunk) controller.enqueue(chunk);
          if (!ahead) {
            await close();
            controller.close();
          }
        } catch (error) {
          await close().catch(() => {});
          controller.error(error);
        }
      },
      async cancel() {
        await close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Whether the answer goes to a socket through @hono/node-server (which puts the node response in `env`): the
 * one writer fileResponseBody's reused buffers are safe with.
 */
export function answersToSocket(c: Context): boolean {
  return (c.env as { outgoing?: unknown } | undefined)?.outgoing !== undefined;
}
