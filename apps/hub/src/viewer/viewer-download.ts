import { open, rm } from "node:fs/promises";
import type { Readable } from "node:stream";

/**
 * Copies a dataset file's content to the conversion's scratch space: whole, or only its first `limitBytes`
 * cut back to the last line break (the public viewer converts the first 5 GB of a split and marks it
 * partial; in a line format, a prefix ending at a line break is itself a valid file). An IO error (the blob
 * store or disk failing mid-copy) is retried from the start, `attempts` times in all.
 */

/** The hub does not hold a file's content: retrying does not help. */
export class MissingContentError extends Error {
  override name = "MissingContentError";
}

export interface DownloadOptions {
  /** Copy at most this many bytes, cut back to the last line break (line formats only). */
  limitBytes?: number;
  attempts?: number;
  /** Wait before retry n (1-based), in ms. */
  backoffMs?: (retry: number) => number;
}

export interface Downloaded {
  bytes: number;
  /** Only a prefix of the content was copied. */
  cut: boolean;
}

const LF = 0x0a;

async function copyOnce(source: Readable, to: string, limitBytes: number | undefined): Promise<Downloaded> {
  const file = await open(to, "w+");
  let bytes = 0;
  let cut = false;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const room = limitBytes === undefined ? chunk.length : limitBytes - bytes;
      const part = room < chunk.length ? chunk.subarray(0, room) : chunk;
      if (part.length > 0) await file.write(part);
      bytes += part.length;
      // More content than room: a prefix (content that ends exactly at the limit is whole).
      if (part.length < chunk.length) {
        cut = true;
        break; // ends the source too
      }
    }
    if (cut) bytes = await cutAtLastLineBreak(file, bytes);
  } finally {
    await file.close();
    source.destroy();
  }
  return { bytes, cut };
}

/** Truncates the file after its last line break (read backwards 1 MiB at a time); returns its new size. */
async function cutAtLastLineBreak(file: Awaited<ReturnType<typeof open>>, size: number): Promise<number> {
  const window = 1 << 20;
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - window);
    const buffer = Buffer.alloc(end - start);
    await file.read(buffer, 0, buffer.length, start);
    const at = buffer.lastIndexOf(LF);
    if (at >= 0) {
      await file.truncate(start + at + 1);
      return start + at + 1;
    }
    end = start;
  }
  await file.truncate(0);
  return 0;
}

/** Copies the content `openSource` gives to `to`, retrying IO errors (see the module's comment). */
export async function downloadContent(
  openSource: () => Promise<Readable | undefined>,
  to: string,
  describe: string,
  options: DownloadOptions = {},
): Promise<Downloaded> {
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoff = options.backoffMs ?? ((retry) => 250 * retry);
  for (let attempt = 1; ; attempt++) {
    try {
      const source = await openSource();
      if (!source) throw new MissingContentError(`${describe}: this hub does not hold its content.`);
      return await copyOnce(source, to, options.limitBytes);
    } catch (error) {
      await rm(to, { force: true });
      if (error instanceof MissingContentError || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, backoff(attempt)));
    }
  }
}
