/**
 * Files' sha256 from the upload's own pass over their bytes. A shard declares each file's sha256 and the hub
 * must check it ("knowing a hash is never a capability"), which took a second pass: reading the file back
 * from its xorbs. But a client uploads a file's xorbs in order, and the verification worker decodes every
 * chunk anyway: xorbs verified one after another form a chain, whose decoded bytes the worker hashes as they
 * pass (xorb-verify-worker.ts), answering the sha256 digest after each chunk. A file whose terms are exactly a
 * chain's start (its first xorb from chunk 0, each next xorb whole, the last one up to any chunk) has its
 * sha256 in that list; any other file (one starting mid-xorb, or whose xorbs were stored before) is
 * read back as before (cas-service.ts). Kept in memory, per process, for the most recent xorbs only.
 *
 * hf_xet sends a file's xorbs two at a time (measured: a 200 MiB file, 4 xorbs, 2 requests in flight), in
 * the file's order. A xorb arriving while its uploader's chain is being extended therefore joins that chain
 * behind the stream extending it (xorb-verify-pool.ts holds its bytes back until that stream has ended), so
 * that the chain follows the arrival order; when they arrive out of the file's order, the file misses and is
 * read back, as it always did with concurrent xorbs before.
 */

/** The xorbs a chain holds, in order, and whether a stream is extending it now. */
interface Chain {
  id: number;
  /** Who uploads along it (a token's session): another uploader's xorbs never extend it. */
  uploader: string;
  xorbs: string[];
  /** Streams extending it: the one being hashed and those queued behind it, in arrival order. */
  streams: number;
  /** When its last xorb was verified (ms): a chain idle longer than CONTINUE_MS is not extended. */
  verifiedAt: number;
  /** Closed while a stream was extending it: closed for good once that stream ends. */
  closing?: boolean;
  /** Opaque: the worker holding the chain's hash (a stream continuing it must go there). */
  owner: unknown;
}

/** A verified xorb: the chain up to it (inclusive) and the chain's sha256 after each of its chunks. */
interface XorbRecord {
  chain: Chain;
  position: number;
  digests: Uint8Array;
}

/** Open chains kept at most (each is a sha256 state in a worker); the least recently extended is closed. */
const MAX_CHAINS = 8;
/** Xorbs remembered (32 bytes a chunk: ~32 KiB for a 64 MiB xorb of 64 KiB chunks). */
const MAX_RECORDS = 128;
/**
 * A chain idle this long is not extended: the next xorb is another upload's (a client chunks and sends its
 * next xorb in well under a second), and a file starting there would otherwise miss.
 */
const CONTINUE_MS = 10_000;
/** A chain this long is closed: a client uploading this much without a shard is not uploading one file. */
const MAX_CHAIN_XORBS = 1024;

export interface FileTerm {
  xorb: string;
  start: number;
  end: number;
}

export class Sha256Chains {
  private readonly chains: Chain[] = [];
  private readonly records = new Map<string, XorbRecord>();
  private nextId = 0;

  /** `close` tells a chain's owner to drop its hash. */
  constructor(private readonly close: (chain: number, owner: unknown) => void) {}

  /**
   * The chain a new xorb stream of `uploader` extends: the uploader's most recently extended one, if
   * `usable(owner)`; else a new chain owned by `newOwner()`. `queued` when another stream is extending it now:
   * the new stream's bytes must then wait until that one has ended (verified, failed or abandoned).
   */
  begin(
    uploader: string,
    usable: (owner: unknown) => boolean,
    newOwner: () => unknown,
    now = Date.now(),
  ): { id: number; owner: unknown; queued: boolean } {
    for (const stale of this.chains.filter((c) => c.streams === 0 && now - c.verifiedAt > CONTINUE_MS))
      this.drop(stale);
    let chain = this.chains.findLast(
      (c) => c.uploader === uploader && !c.closing && c.xorbs.length + c.streams < MAX_CHAIN_XORBS,
    );
    if (chain && !usable(chain.owner)) {
      this.drop(chain);
      chain = undefined;
    }
    if (!chain) {
      chain = { id: this.nextId++, uploader, xorbs: [], streams: 0, verifiedAt: now, owner: newOwner() };
      if (this.chains.length >= MAX_CHAINS) {
        const oldest = this.chains.find((c) => c.streams === 0);
        if (oldest) this.drop(oldest);
      }
    } else {
      this.chains.splice(this.chains.indexOf(chain), 1);
    }
    this.chains.push(chain);
    chain.streams++;
    return { id: chain.id, owner: chain.owner, queued: chain.streams > 1 };
  }

  /** The stream extending `chainId` verified xorb `xorb`; `digests` holds 32 bytes per chunk. */
  verified(chainId: number, xorb: string, digests: Uint8Array, now = Date.now()): void {
    const chain = this.chains.find((c) => c.id === chainId);
    if (!chain) return;
    chain.streams--;
    chain.verifiedAt = now;
    chain.xorbs.push(xorb);
    this.records.delete(xorb);
    this.records.set(xorb, { chain, position: chain.xorbs.length - 1, digests });
    if (this.records.size > MAX_RECORDS) this.records.delete(this.records.keys().next().value as string);
    if (chain.closing || chain.xorbs.length >= MAX_CHAIN_XORBS) this.drop(chain);
  }

  /**
   * The stream extending `chainId` failed or was abandoned: its owner dropped the chain's hash. Streams queued
   * behind it still end, on no chain (their xorbs give no file its sha256).
   */
  failed(chainId: number): void {
    const at = this.chains.findIndex((c) => c.id === chainId);
    if (at >= 0) this.chains.splice(at, 1);
  }

  /** `uploader` sent its shard: its upload is over, its next xorb starts another file. */
  ended(uploader: string): void {
    for (const chain of this.chains.filter((c) => c.uploader === uploader)) this.drop(chain);
  }

  /** Every chain `owner` held is gone (its worker exited). */
  lost(owner: unknown): void {
    for (const chain of this.chains.filter((c) => c.owner === owner)) this.failed(chain.id);
  }

  /**
   * The sha256 (hex) of a file made of `terms`, when they lie exactly along a chain from its start;
   * `chunkCount(xorb)` is a xorb's number of chunks. A file ending where its chain ends closes the chain: the
   * client's next xorb starts another file.
   */
  fileSha256(terms: readonly FileTerm[], chunkCount: (xorb: string) => number): string | undefined {
    const last = terms.at(-1);
    const record = last && this.records.get(last.xorb);
    if (!last || !record || record.position !== terms.length - 1) return undefined;
    for (const [i, term] of terms.entries()) {
      if (record.chain.xorbs[i] !== term.xorb || term.start !== 0) return undefined;
      if (i < terms.length - 1 && term.end !== chunkCount(term.xorb)) return undefined;
    }
    if (last.end < 1 || last.end * 32 > record.digests.byteLength) return undefined;
    const digest = Buffer.from(record.digests.buffer, record.digests.byteOffset + (last.end - 1) * 32, 32);
    if (record.chain.xorbs.length === terms.length && last.end * 32 === record.digests.byteLength) {
      this.drop(record.chain);
    }
    return digest.toString("hex");
  }

  private drop(chain: Chain): void {
    if (chain.streams > 0) {
      chain.closing = true;
      return;
    }
    const at = this.chains.indexOf(chain);
    if (at < 0) return;
    this.chains.splice(at, 1);
    this.close(chain.id, chain.owner);
  }
}
