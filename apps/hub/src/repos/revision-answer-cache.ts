import { createHash } from "node:crypto";

/** An answer kept: its JSON text and the ETag that names exactly these bytes. */
export interface CachedAnswer {
  body: string;
  etag: string;
}

/** What the process keeps by default: answers of ~10 KB, a few thousand of them. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** A strong ETag of a JSON body (its SHA-256, shortened): equal tags mean equal bytes. */
export function etagOf(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Whether an If-None-Match header names `etag` (or is `*`); weak tags compare by their opaque part. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}

/**
 * JSON answers computed once and kept, least recently used first out, bounded by the bytes they hold.
 * Correct across replicas without invalidation because of what the key is: every input the answer is
 * computed from (the commit id for what a commit fixes, and the current value of everything that changes
 * without a commit, read on each request), so a changed input is a new key and an old entry is only ever
 * evicted, never wrong (docs/decisions/revision-answer-cache.md). The caller builds the key; this class only
 * keeps answers.
 */
export class RevisionAnswerCache {
  private readonly answers = new Map<string, CachedAnswer & { bytes: number }>();
  private held = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_BYTES) {}

  get(key: string): CachedAnswer | undefined {
    const hit = this.answers.get(key);
    if (!hit) return undefined;
    // Move to the most recently used end.
    this.answers.delete(key);
    this.answers.set(key, hit);
    return hit;
  }

  /** Keeps `body` under `key` (unless it alone exceeds the bound) and returns it with its ETag. */
  set(key: string, body: string): CachedAnswer {
    const answer = { body, etag: etagOf(body), bytes: 2 * (key.length + body.length) };
    if (answer.bytes > this.maxBytes) return answer;
    const previous = this.answers.get(key);
    if (previous) {
      this.answers.delete(key);
      this.held -= previous.bytes;
    }
    this.answers.set(key, answer);
    this.held += answer.bytes;
    for (const [oldest, value] of this.answers) {
      if (this.held <= this.maxBytes) break;
      this.answers.delete(oldest);
      this.held -= value.bytes;
    }
    return answer;
  }

  /** Bytes held (keys and bodies, two per character as V8 may store them). */
  get heldBytes(): number {
    return this.held;
  }

  get size(): number {
    return this.answers.size;
  }
}

/**
 * A number for an object, the same for as long as the object lives: a key part for inputs read as objects
 * that stay the same object while unchanged (a catalogue record read through `models.shared()`). An input
 * that is a new object on every read (another reader) gets a new number every time: never a stale hit,
 * only no hit.
 */
const identities = new WeakMap<object, number>();
let nextIdentity = 1;
export function identityOf(value: object): number {
  let identity = identities.get(value);
  if (identity === undefined) {
    identity = nextIdentity++;
    identities.set(value, identity);
  }
  return identity;
}
