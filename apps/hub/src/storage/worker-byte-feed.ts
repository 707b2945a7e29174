/**
 * Bytes fed to a worker thread in batches, with back-pressure: pieces are gathered until a batch holds
 * `batchBytes`, copied once into a buffer whose memory is then transferred to the worker, and at most
 * `maxInFlight` bytes wait there unacknowledged (push() then returns a promise to await). Shared by the
 * upload's off-thread sha256 (off-thread-hash.ts) and the Xet xorb verification pool
 * (lfs-xet/xorb-verify-pool.ts); each owns its worker and its messages, this owns the batching.
 */
export class WorkerByteFeed {
  private gathered: Uint8Array[] = [];
  private gatheredBytes = 0;
  private inFlight = 0;
  private wakeUp: (() => void) | undefined;
  /** Set once the worker failed this stream: every later push or finish throws it. */
  error: Error | undefined;

  constructor(
    private readonly options: {
      batchBytes: number;
      maxInFlight: number;
      /** A buffer of at least `length` bytes (a reused one where the caller keeps spares). */
      buffer(length: number): ArrayBuffer;
      /** Transfers `batch` (its first `length` bytes are the data) to the worker; `end` marks the last. */
      post(batch: ArrayBuffer, length: number, end: boolean): void;
    },
  ) {}

  /** Adds a piece; a promise when the worker must catch up first. */
  push(piece: Uint8Array): Promise<void> | undefined {
    if (this.error) throw this.error;
    this.gathered.push(piece);
    this.gatheredBytes += piece.byteLength;
    if (this.gatheredBytes < this.options.batchBytes) return undefined;
    this.send(false);
    if (this.inFlight <= this.options.maxInFlight) return undefined;
    return new Promise<void>((resolve) => {
      this.wakeUp = resolve;
    }).then(() => {
      if (this.error) throw this.error;
    });
  }

  /** Bytes gathered and not yet sent. */
  get pendingBytes(): number {
    return this.gatheredBytes;
  }

  /** Sends what is gathered (possibly nothing), `end` marking it the stream's last batch. */
  send(end: boolean): void {
    // One copy into a buffer of its own, whose memory then moves to the worker without another copy.
    const length = this.gatheredBytes;
    const batch = this.options.buffer(length);
    const view = new Uint8Array(batch);
    let offset = 0;
    for (const piece of this.gathered) {
      view.set(piece, offset);
      offset += piece.byteLength;
    }
    this.inFlight += length;
    this.drop();
    this.options.post(batch, length, end);
  }

  /** Forgets what is gathered (the stream is abandoned). */
  drop(): void {
    this.gathered = [];
    this.gatheredBytes = 0;
  }

  /** The worker has taken `bytes`: a waiting push() resumes once half the window is free. */
  acked(bytes: number): void {
    this.inFlight -= bytes;
    if (this.inFlight <= this.options.maxInFlight / 2 && this.wakeUp) {
      const resume = this.wakeUp;
      this.wakeUp = undefined;
      resume();
    }
  }

  /** The worker failed this stream: a waiting push() resumes and throws. */
  fail(reason: Error): void {
    this.error = reason;
    this.wakeUp?.();
  }
}
