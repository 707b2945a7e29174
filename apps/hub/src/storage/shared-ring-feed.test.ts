import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SharedRingFeed } from "./shared-ring-feed.js";

/** A feed over a ring of `slots` slots of `slotBytes`, whose announcements are recorded with their bytes. */
function recordedFeed(slots: number, slotBytes: number) {
  const ring = new SharedArrayBuffer(slots * slotBytes);
  const announced: { slot: number; bytes: Buffer; end: boolean }[] = [];
  const feed = new SharedRingFeed(ring, slotBytes, (slot, length, end) => {
    const bytes = slot < 0 ? Buffer.alloc(0) : Buffer.from(new Uint8Array(ring, slot * slotBytes, length));
    announced.push({ slot, bytes, end });
  });
  return { feed, announced };
}

describe("SharedRingFeed", () => {
  it("fills slots in turn across piece boundaries, and announces the partial last one at the end", () => {
    const { feed, announced } = recordedFeed(3, 8);
    const data = randomBytes(21);
    expect(feed.push(data.subarray(0, 5))).toBeUndefined();
    expect(feed.push(data.subarray(5, 19))).toBeUndefined();
    feed.acked(announced[0]!.slot);
    expect(feed.push(data.subarray(19))).toBeUndefined();
    feed.end();
    expect(announced.map((each) => each.end)).toEqual([false, false, true]);
    expect(Buffer.concat(announced.map((each) => each.bytes)).equals(data)).toBe(true);
    expect(new Set(announced.map((each) => each.slot)).size).toBe(3);
  });

  it("makes the writer wait, mid-piece, until the worker frees a slot, and loses no byte", async () => {
    const { feed, announced } = recordedFeed(2, 4);
    const data = randomBytes(13);
    const waiting = feed.push(data);
    expect(waiting).toBeInstanceOf(Promise);
    expect(announced).toHaveLength(2);
    let resumed = false;
    void waiting!.then(() => {
      resumed = true;
    });
    await Promise.resolve();
    expect(resumed).toBe(false);
    // The first freed slot takes 4 more bytes; the last byte waits for the second.
    feed.acked(announced[0]!.slot);
    await new Promise((resolve) => setImmediate(resolve));
    expect(resumed).toBe(false);
    expect(announced).toHaveLength(3);
    feed.acked(announced[1]!.slot);
    await waiting;
    expect(resumed).toBe(true);
    feed.end();
    expect(Buffer.concat(announced.map((each) => each.bytes)).equals(data)).toBe(true);
    expect(announced.at(-1)).toMatchObject({ end: true });
  });

  it("announces an empty end without a slot, and a waiting writer throws once the worker failed", async () => {
    const { feed, announced } = recordedFeed(2, 4);
    const waiting = feed.push(randomBytes(12));
    feed.fail(new Error("the worker exited"));
    await expect(waiting).rejects.toThrow("the worker exited");
    expect(() => feed.push(randomBytes(1))).toThrow("the worker exited");
    const empty = recordedFeed(2, 4);
    empty.feed.end();
    expect(empty.announced).toEqual([{ slot: -1, bytes: Buffer.alloc(0), end: true }]);
    expect(announced).toHaveLength(2);
  });
});
