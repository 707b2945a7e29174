import type { Readable } from "node:stream";

/**
 * A forward-only reader over a stream of chunks that keeps only what the caller asks for buffered, so a
 * multi-GiB pickle is read with a few chunks of memory: large payloads are skipped, never collected.
 * The synchronous `has`/`take` pair lets a parser run opcode by opcode without an await per byte.
 */
export class ByteReader {
  private buffer: Buffer = Buffer.alloc(0);
  private position = 0;
  /** Absolute offset of `buffer[0]` in the source. */
  private bufferStart: number;
  private ended = false;

  private constructor(
    private readonly chunks: AsyncIterator<Buffer> | undefined,
    startOffset: number,
  ) {
    this.bufferStart = startOffset;
  }

  /** `keepOpen`: closing the reader leaves the stream to its owner (a tar member the extractor drains). */
  static fromStream(stream: Readable | AsyncIterable<Buffer>, startOffset = 0, keepOpen = false): ByteReader {
    const iterator =
      keepOpen && "iterator" in stream
        ? stream.iterator({ destroyOnReturn: false })
        : (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    return new ByteReader(iterator as AsyncIterator<Buffer>, startOffset);
  }

  static fromBuffer(data: Buffer, startOffset = 0): ByteReader {
    const reader = new ByteReader(undefined, startOffset);
    reader.buffer = data;
    reader.ended = true;
    return reader;
  }

  /** Absolute offset of the next unread byte. */
  get offset(): number {
    return this.bufferStart + this.position;
  }

  available(): number {
    return this.buffer.length - this.position;
  }

  has(n: number): boolean {
    return this.available() >= n;
  }

  /** Buffers at least `n` bytes; false when the source ends first. */
  async ensure(n: number): Promise<boolean> {
    while (this.available() < n) {
      const chunk = await this.nextChunk();
      if (!chunk) return false;
      const rest = this.buffer.subarray(this.position);
      this.bufferStart += this.position;
      this.buffer = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
      this.position = 0;
    }
    return true;
  }

  /** True when no byte is left. */
  async atEnd(): Promise<boolean> {
    return !(await this.ensure(1));
  }

  /** The next `n` buffered bytes (call `has`/`ensure` first). The view is only valid until the next read. */
  take(n: number): Buffer {
    const out = this.buffer.subarray(this.position, this.position + n);
    this.position += n;
    return out;
  }

  /** The next `n` buffered bytes without consuming them (call `has` first). */
  peek(n: number): Buffer {
    return this.buffer.subarray(this.position, this.position + n);
  }

  byte(): number {
    return this.buffer[this.position++]!;
  }

  /** Skips `n` bytes without keeping them; false when the source ends first. */
  async skip(n: number): Promise<boolean> {
    let left = n;
    while (left > 0) {
      const inBuffer = Math.min(left, this.available());
      this.position += inBuffer;
      left -= inBuffer;
      if (left === 0) break;
      const chunk = await this.nextChunk();
      if (!chunk) return false;
      this.bufferStart += this.buffer.length;
      this.buffer = chunk;
      this.position = 0;
    }
    return true;
  }

  /**
   * Reads up to and including the next "\n". Returns the line without it, or `tooLong` when it exceeds
   * `maxLength` (the rest of the line is skipped, not kept), or undefined when the source ends first.
   */
  async readLine(maxLength: number): Promise<{ line?: Buffer; tooLong: boolean } | undefined> {
    let scanned = 0;
    let tooLong = false;
    for (;;) {
      const newline = this.buffer.indexOf(10, this.position + scanned);
      if (newline >= 0) {
        const length = newline - this.position;
        if (tooLong || length > maxLength) {
          this.position = newline + 1;
          return { tooLong: true };
        }
        const line = Buffer.from(this.buffer.subarray(this.position, newline));
        this.position = newline + 1;
        return { line, tooLong: false };
      }
      scanned = this.available();
      if (scanned > maxLength) {
        // Drop what is buffered: the line is too long to keep, only its end matters.
        tooLong = true;
        this.bufferStart += this.buffer.length;
        this.buffer = Buffer.alloc(0);
        this.position = 0;
        scanned = 0;
      }
      const before = this.available();
      if (!(await this.ensure(before + 1))) return undefined;
    }
  }

  private async nextChunk(): Promise<Buffer | undefined> {
    if (this.ended || !this.chunks) return undefined;
    for (;;) {
      const { value, done } = await this.chunks.next();
      if (done) {
        this.ended = true;
        return undefined;
      }
      const chunk = typeof value === "string" ? Buffer.from(value) : (value as Buffer);
      if (chunk.length > 0) return chunk;
    }
  }

  /** Stops reading the source (the stream is destroyed by its iterator's return). */
  async close(): Promise<void> {
    this.ended = true;
    await this.chunks?.return?.();
  }
}
