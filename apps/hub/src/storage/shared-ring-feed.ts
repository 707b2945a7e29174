/**
 * Bytes fed to a worker thread through a ring of slots in one SharedArrayBuffer, with back-pressure: pieces
 * are copied into the current slot; a full slot is announced to the worker (a small message: its index and
 * length) and comes back free once the worker has consumed it. push() returns a promise to await when every
 * slot is with the worker.
 *
 * Why not transfer an ArrayBuffer per batch (worker-byte-feed.ts): each buffer handed back by the worker is
 * a new ArrayBuffer on this thread, whose memory V8 counts as freshly allocated external memory (it weighs
 * in V8's decision to run a full collection), and each transfer costs a structured-clone postMessage. The
 * ring is allocated once and reused by the streams after.
 *
 * The worker must be done with a slot's bytes when it acknowledges it: it may not keep views into the ring.
 */
export class SharedRingFeed {
  private readonly free: number[];
  private current = -1;
  private filled = 0;
  private wakeUp: (() => void) | undefined;
  /** Set once the worker failed this stream: every later push or finish throws it. */
  error: Error | undefined;

  constructor(
    readonly ring: SharedArrayBuffer,
    private readonly slotBytes: number,
    /** Announces `length` bytes of slot `slot` (-1 with length 0: nothing more); `end` marks the last. */
    private readonly post: (slot: number, length: number, end: boolean) => void,
  ) {
    const slots = Math.floor(ring.byteLength / slotBytes);
    if (slots < 2) throw new RangeError("SharedRingFeed: the ring must hold at least two slots.");
    this.free = Array.from({ length: slots }, (_, slot) => slots - 1 - slot);
  }

  /** Adds a piece; a promise when every slot is with the worker (await it before pushing more). */
  push(piece: Uint8Array): Promise<void> | undefined {
    if (this.error) throw this.error;
    let offset = 0;
    while (offset < piece.byteLength) {
      if (this.current < 0) {
        const slot = this.free.pop();
        if (slot === undefined) return this.slotFreed().then(() => this.push(piece.subarray(offset)));
        this.current = slot;
        this.filled = 0;
      }
      const take = Math.min(this.slotBytes - this.filled, piece.byteLength - offset);
      new Uint8Array(this.ring, this.current * this.slotBytes + this.filled, take).set(
        piece.subarray(offset, offset + take),
      );
      this.filled += take;
      offset += take;
      if (this.filled === this.slotBytes) this.announce(false);
    }
    return undefined;
  }

  /** Announces what the current slot holds (possibly nothing) as the stream's last bytes. */
  end(): void {
    this.announce(true);
  }

  /** The worker is done with `slot`: it is free again, and a waiting push() resumes. */
  acked(slot: number): void {
    this.free.push(slot);
    const resume = this.wakeUp;
    this.wakeUp = undefined;
    resume?.();
  }

  /** The worker failed this stream: a waiting push() resumes and throws. */
  fail(reason: Error): void {
    this.error = reason;
    const resume = this.wakeUp;
    this.wakeUp = undefined;
    resume?.();
  }

  private announce(end: boolean): void {
    const slot = this.current;
    const length = slot < 0 ? 0 : this.filled;
    this.current = -1;
    this.filled = 0;
    this.post(slot, length, end);
  }

  private slotFreed(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wakeUp = resolve;
    }).then(() => {
      if (this.error) throw this.error;
    });
  }
}
