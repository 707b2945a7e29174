import { describe, expect, it } from "vitest";
import { Sha256Chains } from "./file-sha256-chains.js";

/** Digests whose bytes say which xorb and chunk they follow (32 bytes each). */
function digests(tag: number, chunks: number): Uint8Array {
  const out = new Uint8Array(chunks * 32);
  for (let i = 0; i < chunks; i++) out.fill(tag * 16 + i, i * 32, i * 32 + 32);
  return out;
}
const hexOf = (tag: number, chunk: number) => Buffer.alloc(32, tag * 16 + chunk).toString("hex");
const counts = (xorb: string) => ({ a: 3, b: 4, c: 2 })[xorb] ?? 0;

function setup() {
  const closed: number[] = [];
  const chains = new Sha256Chains((chain) => closed.push(chain));
  const owner = {};
  const begin = (now = 0, uploader = "alice") =>
    chains.begin(
      uploader,
      () => true,
      () => owner,
      now,
    ).id;
  return { chains, closed, begin };
}

describe("file sha256 chains", () => {
  it("answers a file lying along a chain from its start, at any last chunk, and nothing else", () => {
    const { chains, begin } = setup();
    const first = begin();
    chains.verified(first, "a", digests(1, 3), 0);
    expect(begin(1)).toBe(first);
    chains.verified(first, "b", digests(2, 4), 1);
    const whole = [
      { xorb: "a", start: 0, end: 3 },
      { xorb: "b", start: 0, end: 2 },
    ];
    expect(chains.fileSha256(whole, counts)).toBe(hexOf(2, 1));
    expect(chains.fileSha256([{ xorb: "a", start: 0, end: 2 }], counts)).toBe(hexOf(1, 1));
    // Starting mid-xorb, skipping chunks, out of order, or starting past the chain's start: read back.
    expect(chains.fileSha256([{ xorb: "a", start: 1, end: 3 }], counts)).toBeUndefined();
    expect(
      chains.fileSha256(
        [
          { xorb: "a", start: 0, end: 2 },
          { xorb: "b", start: 0, end: 2 },
        ],
        counts,
      ),
    ).toBeUndefined();
    expect(chains.fileSha256([{ xorb: "b", start: 0, end: 4 }], counts)).toBeUndefined();
    expect(
      chains.fileSha256(
        [
          { xorb: "b", start: 0, end: 4 },
          { xorb: "a", start: 0, end: 3 },
        ],
        counts,
      ),
    ).toBeUndefined();
    expect(chains.fileSha256([{ xorb: "a", start: 0, end: 4 }], counts)).toBeUndefined();
    expect(chains.fileSha256([{ xorb: "a", start: 0, end: 0 }], counts)).toBeUndefined();
  });

  it("closes a chain once a file ends where it ends, when it goes idle, or when its stream fails", () => {
    const { chains, closed, begin } = setup();
    const first = begin();
    chains.verified(first, "a", digests(1, 3), 0);
    expect(chains.fileSha256([{ xorb: "a", start: 0, end: 3 }], counts)).toBe(hexOf(1, 2));
    expect(closed).toEqual([first]);
    // The next xorb starts another chain, so the next file (starting there) is answered too.
    const second = begin(1);
    expect(second).not.toBe(first);
    chains.verified(second, "c", digests(3, 2), 1);
    expect(chains.fileSha256([{ xorb: "c", start: 0, end: 2 }], counts)).toBe(hexOf(3, 1));
    // Idle for long: not extended.
    const third = begin(2);
    chains.verified(third, "b", digests(2, 4), 2);
    const fourth = begin(60_000);
    expect(fourth).not.toBe(third);
    expect(closed).toContain(third);
    // A failed stream's chain is forgotten (its worker dropped the hash): the next xorb starts afresh.
    chains.failed(fourth);
    const fifth = begin(60_001);
    expect(fifth).not.toBe(fourth);
    // The uploader's shard ends its chains; another uploader's xorb never extends them.
    chains.verified(fifth, "a", digests(1, 3), 60_002);
    expect(begin(60_003, "bob")).not.toBe(fifth);
    chains.ended("alice");
    expect(closed).toContain(fifth);
  });

  it("queues a xorb sent while the chain is being extended behind that stream, in arrival order", () => {
    const { chains, closed } = setup();
    const begin = (now: number) =>
      chains.begin(
        "alice",
        () => true,
        () => ({}),
        now,
      );
    const first = begin(0);
    expect(first.queued).toBe(false);
    // Sent at once (as hf_xet sends two): the second joins the chain, queued.
    const second = begin(0);
    expect(second.id).toBe(first.id);
    expect(second.queued).toBe(true);
    chains.verified(first.id, "a", digests(1, 3), 1);
    chains.verified(second.id, "b", digests(2, 4), 2);
    const terms = [
      { xorb: "a", start: 0, end: 3 },
      { xorb: "b", start: 0, end: 4 },
    ];
    expect(chains.fileSha256(terms, counts)).toBe(hexOf(2, 3));
    expect(closed).toEqual([first.id]);
    // A failed stream takes its chain with it: the stream queued behind it ends on no chain.
    const third = begin(3);
    const fourth = begin(3);
    expect(fourth.id).toBe(third.id);
    chains.failed(third.id);
    chains.verified(fourth.id, "c", digests(3, 2), 4);
    expect(chains.fileSha256([{ xorb: "c", start: 0, end: 2 }], counts)).toBeUndefined();
    // Once the uploader's shard came, its next xorb starts another chain, even while one is being extended.
    const fifth = begin(5);
    chains.ended("alice");
    expect(begin(5).id).not.toBe(fifth.id);
  });

  it("closes a chain after the stream extending it when asked", () => {
    const { chains, closed, begin } = setup();
    const first = begin();
    chains.verified(first, "a", digests(1, 3), 0);
    const extending = begin(1);
    expect(extending).toBe(first);
    // The file ending at "a" closes the chain; its stream still ends, then the chain goes.
    expect(chains.fileSha256([{ xorb: "a", start: 0, end: 3 }], counts)).toBe(hexOf(1, 2));
    expect(closed).toEqual([]);
    chains.verified(first, "b", digests(2, 4), 2);
    expect(closed).toEqual([first]);
  });
});
