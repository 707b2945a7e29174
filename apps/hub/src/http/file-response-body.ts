import { type FileHandle, open } from "node:fs/promises";
import type { Context } from "hono";

/** Bytes per read of a file answer, and how many buffers one answer cycles through. */
const CHUNK_BYTES = 512 * 1024;
const BUFFERS = 8;

/**
 * A file's bytes `range.start..range.end` (inclusive) as the body of an HTTP answer, read into a few buffers
 * reused in turn instead of a fresh buffer per read. Every fresh read buffer is external memory, and V8
 * collects the young generation every few MiB of it: a download through fs.createReadStream and
 * Readable.toWeb spent about half of the hub's CPU in the collector (bench/results/2026-11-29-serve.md).
 *
 * Reuse is safe for the node server's writer (@hono/node-server): the stream is pull-driven (high-water mark
 * 0, so a read happens only when the writer asks), and the writer hands each chunk to the socket before it
 * asks for the next one, waiting for 'drain' whenever the socket did not take the chunk at once; it holds at
 * most four chunks before its first wait (the reads it makes before sending the headers). A buffer is
 * written again only BUFFERS reads after it was handed out. Not for a reader that keeps every chunk
 * (`Response.arrayBuffer()` on a large file): the blob store's stream is for that.
 *
 * The file is opened on the first read, so an answer whose body is never read (HEAD) opens nothing; it is
 * closed at the end, on an error and when the client goes away (cancel).
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
  let ended = false;
  const close = async () => {
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
          if (position > range.end) {
            await close();
            controller.close();
            return;
          }
          handle ??= await open(path, "r");
          const index = turn++ % BUFFERS;
          buffers[index] ??= Buffer.allocUnsafeSlow(CHUNK_BYTES);
          const buffer = buffers[index]!;
          const length = Math.min(CHUNK_BYTES, range.end + 1 - position);
          const { bytesRead } = await handle.read(buffer, 0, length, position);
          if (bytesRead === 0) {
            throw new Error(
              `${path} ends at byte ${position}, before byte ${range.end}: it is shorter than recorded.`,
            );
          }
          position += bytesRead;
          controller.enqueue(buffer.subarray(0, bytesRead));
          if (position > range.end) {
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
