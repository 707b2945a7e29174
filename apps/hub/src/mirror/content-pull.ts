import { randomBytes } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { type FileHandle, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { ByteRange } from "../storage/blob-store.js";
import { inThreadHash, type StreamHash } from "../storage/off-thread-hash.js";

/** The content a mirrored file declares upstream: what the transfer must produce, byte for byte. */
export interface DeclaredContent {
  sha256: string;
  size: number;
}

/**
 * One way of getting a content's bytes from upstream (plain download, or Xet reconstruction) and of keeping
 * them once they are verified.
 */
export interface PullSource {
  /**
   * Starts the transfer: resolves once upstream answered (its status refusals reject here, before any
   * reader was promised a body) with the content's bytes in order. `signal` aborts it (a stalled upstream).
   */
  start(signal: AbortSignal): Promise<AsyncIterable<Uint8Array>>;
  /**
   * Keeps the verified content: `tmpPath` holds exactly the declared bytes (a plain source puts them into
   * the blob store; a Xet source stored its chunks along the way and registers the file). Called once.
   */
  keep(tmpPath: string, content: DeclaredContent): Promise<void>;
}

export interface ContentPullerOptions {
  /** Where transfers are written while they run: a directory of the blob store's tmp root (tmp-dirs.ts). */
  tmpDir: string;
  /** No byte from upstream for this long ends the transfer (the upstream client bounds connect + headers). */
  idleTimeoutMs?: number;
  /** Told about each transfer's end (metrics, logs). */
  observe?: (event: { sha256: string; bytes: number; outcome: "stored" | "failed"; error?: Error }) => void;
}

/** Upstream's bytes are not the declared content (hash or size): nothing was kept. */
export class ContentMismatchError extends Error {
  constructor(
    readonly expected: DeclaredContent,
    readonly actual: { sha256?: string; size: number },
  ) {
    super(
      actual.size !== expected.size
        ? `Upstream sent ${actual.size > expected.size ? "more than" : ""} ${actual.size} bytes for sha256:${expected.sha256}, which upstream declares as ${expected.size} bytes: nothing was kept; the next request tries again.`
        : `Upstream's bytes hash to sha256:${actual.sha256}, not the declared sha256:${expected.sha256}: nothing was kept; the next request tries again.`,
    );
    this.name = "ContentMismatchError";
  }
}

/** Upstream's body ended before the declared size, or failed: nothing was kept. */
export class TransferCutError extends Error {
  constructor(sha256: string, received: number, size: number, cause?: unknown) {
    super(
      `The upstream transfer of sha256:${sha256} was cut after ${received} of ${size} bytes${cause instanceof Error ? ` (${cause.message})` : ""}: nothing was kept; the next request tries again.`,
      { cause },
    );
    this.name = "TransferCutError";
  }
}

/** Upstream sent nothing for the idle timeout: the transfer was abandoned and nothing kept. */
export class TransferStalledError extends Error {
  constructor(sha256: string, received: number, idleMs: number) {
    super(
      `Upstream sent no byte of sha256:${sha256} for ${Math.round(idleMs / 1000)} s (after ${received} bytes): the transfer was abandoned and nothing kept; the next request tries again.`,
    );
    this.name = "TransferStalledError";
  }
}

const READ_PIECE = 1 << 20;
/** Bytes buffered for the temp file before the transfer waits for the disk. */
const WRITE_BATCH = 4 << 20;
/**
 * Bytes already written that the transfer keeps in memory (upstream's own chunks, no copy) for readers
 * that keep up with it: they are handed views of those chunks instead of reading the file back.
 */
const RECENT_WINDOW = 4 << 20;
const DEFAULT_IDLE_MS = 30_000;

/**
 * One upstream transfer of one content into a temporary file, which every reader of that content tails.
 * The transfer writes at disk speed whatever the readers do (a slow reader costs disk, not memory); each
 * reader reads the file at its own pace with back-pressure, and waits on `changed()` (no polling) when it has
 * caught up with the writer.
 */
class Flight {
  readonly path: string;
  written = 0;
  /**
   * Bytes received from upstream so far: all of them are readable, those not yet written from the chunks held
   * in memory (`recent` keeps every unwritten chunk), so a reader that keeps up is not behind the disk.
   */
  received = 0;
  state: "running" | "verified" | "failed" = "running";
  error?: Error;
  /** Readers still open: the file handle stays open until they and the transfer are done. */
  readers = 0;
  /** The transfer (write) side is over: kept or failed. */
  finished = false;
  handle?: FileHandle;
  /**
   * The latest chunks received, in order, each with its offset in the content: the ones not written yet and
   * about RECENT_WINDOW bytes of written ones. A reader that keeps up takes its bytes from here; one that
   * fell further behind reads the file. Chunks are never changed once received (upstream's fresh buffers).
   */
  private readonly recent: Array<{ at: number; bytes: Uint8Array }> = [];
  private recentWritten = 0;
  /** Resolves once upstream answered (rejects with its refusal). */
  readonly started: Promise<void>;
  /** Resolves once the content is kept (stored), rejects when the transfer or keeping it failed. */
  readonly kept: Promise<void>;
  private settleKept!: (error?: Error) => void;
  private wakeUp?: { promise: Promise<void>; resolve: () => void };

  constructor(
    readonly content: DeclaredContent,
    tmpDir: string,
    source: PullSource,
    private readonly idleMs: number,
    private readonly onEnd: (flight: Flight) => void,
  ) {
    this.path = join(tmpDir, `mirror-${content.sha256.slice(0, 16)}-${randomBytes(6).toString("hex")}`);
    let started!: () => void;
    let refused!: (error: unknown) => void;
    this.started = new Promise<void>((resolve, reject) => {
      started = resolve;
      refused = reject;
    });
    this.started.catch(() => {});
    this.kept = new Promise<void>((resolve, reject) => {
      this.settleKept = (error) => (error ? reject(error) : resolve());
    });
    this.kept.catch(() => {});
    void this.run(source, started, refused);
  }

  /** A promise settled at the next write or state change. */
  changed(): Promise<void> {
    if (!this.wakeUp) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.wakeUp = { promise, resolve };
    }
    return this.wakeUp.promise;
  }

  /**
   * Bytes of the content from `position` on, up to `limit`, as a view of a chunk still held in memory;
   * undefined when that position has left the window (the reader then reads the file).
   */
  held(position: number, limit: number): Uint8Array | undefined {
    const recent = this.recent;
    // Readers are mostly at the newest chunks: search from the end.
    for (let i = recent.length - 1; i >= 0; i--) {
      const chunk = recent[i]!;
      if (chunk.at > position) continue;
      const offset = position - chunk.at;
      if (offset >= chunk.bytes.byteLength) return undefined;
      return chunk.bytes.subarray(offset, Math.min(chunk.bytes.byteLength, limit - chunk.at));
    }
    return undefined;
  }

  private remember(at: number, bytes: Uint8Array): void {
    this.recent.push({ at, bytes });
  }

  /** Written chunks beyond the window are let go (the file has them). */
  private forget(): void {
    const recent = this.recent;
    let drop = 0;
    let kept = this.recentWritten;
    for (const chunk of recent) {
      const end = chunk.at + chunk.bytes.byteLength;
      if (end > this.written || kept - chunk.bytes.byteLength < RECENT_WINDOW) break;
      kept -= chunk.bytes.byteLength;
      drop++;
    }
    if (drop > 0) recent.splice(0, drop);
    this.recentWritten = kept;
  }

  private wake(): void {
    const waiting = this.wakeUp;
    this.wakeUp = undefined;
    waiting?.resolve();
  }

  private async run(source: PullSource, started: () => void, refused: (error: unknown) => void) {
    const { sha256, size } = this.content;
    const abort = new AbortController();
    let stalled: TransferStalledError | undefined;
    let file: WriteStream | undefined;
    let hash: StreamHash | undefined;
    try {
      this.handle = await open(this.path, "w+");
      const body = await source.start(abort.signal);
      started();
      // On this thread: on the off-thread hasher (the blob store's for uploads), each 1 MiB batch cost a copy
      // and a postMessage whose wake-up of the worker took longer than hashing the batch here (sha256 runs at
      // over 1 GB/s with the CPU's SHA extensions): bench/results/2026-11-29-mirror-2.md.
      hash = inThreadHash();
      const chunks = body[Symbol.asyncIterator]();
      // Upstream's chunks are small (undici's socket reads, Xet chunks: ~64 KiB). Written one await at a time,
      // each cost a write and, for every reader, a read and a wake-up: the bench:mirror profile showed the
      // mirror's main thread busier with those than with the bytes. The stream gathers the chunks that come
      // while a write is under way into one writev, and the readers catch up once per batch.
      // Its own descriptor: the stream closes it when done, and the readers' handle stays open meanwhile.
      file = createWriteStream(this.path, { flags: "r+", highWaterMark: WRITE_BATCH });
      // A failed write fails the transfer through its callback (below).
      file.on("error", () => {});
      let writeFailed: Error | undefined;
      let received = 0;
      for (;;) {
        let timer: NodeJS.Timeout | undefined;
        const idle = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            stalled = new TransferStalledError(sha256, this.written, this.idleMs);
            abort.abort(stalled);
            reject(stalled);
          }, this.idleMs);
        });
        let next: IteratorResult<Uint8Array>;
        try {
          next = await Promise.race([chunks.next(), idle]);
        } catch (error) {
          if (stalled) chunks.return?.().catch(() => {});
          throw stalled ?? new TransferCutError(sha256, this.written, size, error);
        } finally {
          clearTimeout(timer);
        }
        if (next.done) break;
        const chunk = next.value;
        if (received + chunk.byteLength > size) {
          chunks.return?.().catch(() => {});
          throw new ContentMismatchError(this.content, { size: received + chunk.byteLength });
        }
        const behind = hash.update(chunk);
        if (behind) await behind;
        this.remember(received, chunk);
        received += chunk.byteLength;
        this.received = received;
        this.wake();
        file.write(chunk, (error) => {
          if (error) writeFailed ??= error;
          else {
            this.written += chunk.byteLength;
            this.recentWritten += chunk.byteLength;
            this.forget();
          }
          this.wake();
        });
        // Back-pressure: the disk sets the pace.
        while (!writeFailed && received - this.written > WRITE_BATCH) await this.changed();
        if (writeFailed) throw writeFailed;
      }
      if (received !== size) throw new TransferCutError(sha256, received, size);
      const writing = file;
      await new Promise<void>((resolve, reject) =>
        writing.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      const actual = await hash.digest();
      if (actual !== sha256) throw new ContentMismatchError(this.content, { sha256: actual, size });
      // The readers get their last bytes now; keeping (a copy into the blob store, or registering Xet
      // chunks) happens meanwhile, and joiners still read this file until it is kept.
      this.state = "verified";
      this.wake();
      await source.keep(this.path, this.content);
    } catch (error) {
      file?.destroy();
      hash?.abandon();
      // Gone, and the flight forgotten, before anyone hears of the failure: a retry starts afresh.
      await rm(this.path, { force: true }).catch(() => {});
      // After verification, only keeping failed: the readers had the right bytes; the next request fetches again.
      if (this.state !== "verified") this.state = "failed";
      this.error = error instanceof Error ? error : new Error(String(error));
      this.finished = true;
      this.onEnd(this);
      this.settleKept(this.error);
      // Settles the start only when upstream refused before answering (a no-op once it answered).
      refused(error);
      this.wake();
    } finally {
      // Readers keep their open handle: the bytes stay readable after the name is gone.
      await rm(this.path, { force: true }).catch(() => {});
      if (!this.finished) {
        this.finished = true;
        this.onEnd(this);
        this.settleKept();
      }
      await this.release();
    }
  }

  /**
   * Waits until bytes from `position` on can be read for a range ending at `end` (inclusive), and returns the
   * limit (exclusive) they can be read up to: everything received, the range's last byte only once the
   * content is verified. Returns at once when the range is over; throws the transfer's failure.
   */
  async readableUpTo(position: number, end: number): Promise<number> {
    for (;;) {
      if (this.state === "failed") throw this.error;
      if (position > end) return position;
      const limit = this.state === "verified" ? end + 1 : Math.min(this.received, end);
      if (position < limit) return limit;
      await this.changed();
    }
  }

  /** Reads up to `length` bytes at `position` from the transfer file into `buffer`; at least one. */
  async readFile(buffer: Buffer, length: number, position: number): Promise<number> {
    if (!this.handle) throw new Error(`The transfer file of sha256:${this.content.sha256} is closed.`);
    const { bytesRead } = await this.handle.read(buffer, 0, length, position);
    if (bytesRead === 0) throw new Error(`The transfer file of sha256:${this.content.sha256} ended early.`);
    return bytesRead;
  }

  /** Closes the file once the transfer and every reader are done. */
  async release(): Promise<void> {
    if (this.finished && this.readers === 0) this.recent.length = 0;
    if (this.finished && this.readers === 0 && this.handle) {
      const handle = this.handle;
      this.handle = undefined;
      await handle.close().catch(() => {});
    }
  }
}

/**
 * Bytes `range` of a content being transferred, read from the growing file. The last byte of the range is
 * held back until the whole content is verified: a transfer that turns out cut or wrong errors the stream
 * before it is complete, so the caller's body is short of its Content-Length (every client detects that)
 * and no wrong answer ever looks whole.
 */
class TailReader extends Readable {
  private position: number;
  private readonly end: number;
  private pumping = false;
  private gone = false;

  constructor(
    private readonly flight: Flight,
    range: ByteRange,
  ) {
    super({ highWaterMark: READ_PIECE });
    this.position = range.start;
    this.end = range.end;
    flight.readers++;
  }

  override _read(): void {
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        if (this.gone) return;
        const flight = this.flight;
        if (flight.state === "failed") {
          this.destroy(flight.error);
          return;
        }
        if (this.position > this.end) {
          this.push(null);
          return;
        }
        // Everything received so far, but the range's last byte only once the content is verified.
        const limit = flight.state === "verified" ? this.end + 1 : Math.min(flight.received, this.end);
        if (this.position < limit) {
          const held = flight.held(this.position, limit);
          if (held) {
            this.position += held.byteLength;
            if (!this.push(held)) return;
            continue;
          }
        }
        // Not held any more: written, so in the file (every unwritten chunk is held).
        if (this.position < Math.min(limit, flight.written) && flight.handle) {
          const length = Math.min(Math.min(limit, flight.written) - this.position, READ_PIECE);
          const buffer = Buffer.allocUnsafe(length);
          const { bytesRead } = await flight.handle.read(buffer, 0, length, this.position);
          if (this.gone) return;
          if (bytesRead === 0)
            throw new Error(`The transfer file of sha256:${flight.content.sha256} ended early.`);
          this.position += bytesRead;
          if (!this.push(buffer.subarray(0, bytesRead))) return;
          continue;
        }
        await flight.changed();
      }
    } catch (error) {
      this.destroy(error as Error);
    } finally {
      this.pumping = false;
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A reader going away does not touch the transfer: the others (and the cache) still want it.
    if (!this.gone) {
      this.gone = true;
      this.flight.readers--;
      void this.flight.release();
    }
    callback(error);
  }
}

/** Bytes per piece of an answer body, and how many pieces one answer cycles through (as file-response-body.ts). */
const BODY_PIECE = 512 * 1024;
const BODY_BUFFERS = 8;

/**
 * Bytes `range` of a content being transferred, as the body of an HTTP answer that the node server's writer
 * sends to a socket: the same bytes and guarantees as TailReader (the range's last byte only once verified, an
 * error short of the length when the transfer fails), copied from the transfer's recent chunks (or read from
 * its file when the reader fell behind) into a few 512 KiB buffers reused in turn. Upstream's chunks are
 * 64 KiB socket reads: handed on one by one (a Node stream, then Readable.toWeb), each cost a socket write
 * and the web stream's per-chunk work, a third of a cold LFS pull's CPU in the bench:mirror profile.
 *
 * Reuse is safe only for @hono/node-server's writer (http/file-response-body.ts says why): the stream is
 * pull-driven (high-water mark 0) and the writer hands each piece to the socket before asking for the next.
 */
function tailBody(flight: Flight, range: ByteRange): ReadableStream<Uint8Array> {
  let position = range.start;
  let turn = 0;
  const buffers: Buffer[] = [];
  let left = false;
  flight.readers++;
  const leave = () => {
    if (left) return;
    left = true;
    // A reader going away does not touch the transfer: the others (and the cache) still want it.
    flight.readers--;
    void flight.release();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const limit = await flight.readableUpTo(position, range.end);
          if (position > range.end) {
            leave();
            controller.close();
            return;
          }
          const index = turn++ % BODY_BUFFERS;
          buffers[index] ??= Buffer.allocUnsafeSlow(BODY_PIECE);
          const buffer = buffers[index]!;
          const length = Math.min(BODY_PIECE, limit - position);
          let filled = 0;
          for (;;) {
            const held = filled < length ? flight.held(position + filled, position + length) : undefined;
            if (!held) break;
            buffer.set(held, filled);
            filled += held.byteLength;
          }
          // Not held any more: written, so in the file (every unwritten chunk is held), up to what is written.
          if (filled === 0)
            filled = await flight.readFile(buffer, Math.min(length, flight.written - position), position);
          position += filled;
          controller.enqueue(buffer.subarray(0, filled));
          if (position > range.end) {
            leave();
            controller.close();
          }
        } catch (error) {
          leave();
          controller.error(error);
        }
      },
      cancel() {
        leave();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Single flight per content: the first request for an uncached content starts one upstream transfer, every
 * request for it meanwhile (ranged or not) reads the same growing file, and the transfer is kept only when
 * its size and sha256 are the declared ones. A failed transfer leaves nothing behind; the next request
 * starts a fresh one.
 *
 * Ranges: a ranged request for an uncached content starts (or joins) the full transfer and reads its range
 * from the growing file, instead of being passed through to upstream: a passed-through range could not be
 * verified (only the whole content has a declared hash), it would cost an upstream transfer without filling
 * the cache, and clients resuming a download (`Range: bytes=N-`) read to the end anyway.
 */
export function createContentPuller(options: ContentPullerOptions) {
  const flights = new Map<string, Flight>();
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;

  /** The transfer under way for this content, or a new one. */
  function flightOf(content: DeclaredContent, source: () => PullSource): Flight {
    const current = flights.get(content.sha256);
    if (current) return current;
    const flight = new Flight(content, options.tmpDir, source(), idleMs, (ended) => {
      if (flights.get(ended.content.sha256) === ended) flights.delete(ended.content.sha256);
      options.observe?.({
        sha256: ended.content.sha256,
        bytes: ended.written,
        outcome: ended.state === "verified" && !ended.error ? "stored" : "failed",
        error: ended.error,
      });
    });
    flights.set(content.sha256, flight);
    return flight;
  }

  return {
    /**
     * Bytes `range` of `content` through its transfer: the one under way, or one started with `source()`.
     * Rejects when upstream refuses the transfer (status, unreachable) before a byte was promised; errors
     * the stream when the transfer is cut or its bytes are not the declared ones.
     */
    async read(content: DeclaredContent, range: ByteRange, source: () => PullSource): Promise<Readable> {
      const flight = flightOf(content, source);
      const reader = new TailReader(flight, range);
      try {
        await flight.started;
      } catch (error) {
        reader.destroy();
        throw error;
      }
      return reader;
    },

    /**
     * The same bytes as `read`, as an HTTP answer body for @hono/node-server's writer (tailBody: pieces in
     * reused buffers, so only for a writer that hands each piece on before it asks for the next).
     */
    async body(
      content: DeclaredContent,
      range: ByteRange,
      source: () => PullSource,
    ): Promise<ReadableStream<Uint8Array>> {
      const flight = flightOf(content, source);
      const body = tailBody(flight, range);
      try {
        await flight.started;
      } catch (error) {
        await body.cancel();
        throw error;
      }
      return body;
    },

    /**
     * Fetches and keeps `content` without reading it (a prefetch): joins the transfer under way or starts
     * one; resolves once the content is stored, rejects with why it was not.
     */
    async fetch(content: DeclaredContent, source: () => PullSource): Promise<void> {
      await flightOf(content, source).kept;
    },

    /** Whether a transfer of this content is under way (or read from): eviction must leave it alone. */
    isReading(sha256: string): boolean {
      return flights.has(sha256);
    },

    /** Transfers under way (tests, metrics). */
    get transfersInFlight(): number {
      return flights.size;
    },
  };
}

export type ContentPuller = ReturnType<typeof createContentPuller>;
