import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { offThreadHash, openHashStreams, type StreamHash } from "./off-thread-hash.js";

async function feed(hash: StreamHash, data: Buffer, chunkBytes: number): Promise<string> {
  for (let offset = 0; offset < data.byteLength; offset += chunkBytes) {
    const behind = hash.update(data.subarray(offset, offset + chunkBytes));
    if (behind) await behind;
  }
  return hash.digest();
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

describe("SHA-256 on the worker thread", () => {
  it("equals node:crypto's digest whatever the chunk sizes, for several streams at once", async () => {
    const data = [randomBytes(40 << 20), randomBytes((3 << 20) + 17), randomBytes(0), randomBytes(1)];
    const digests = await Promise.all([
      feed(offThreadHash(), data[0]!, 65_536),
      feed(offThreadHash(), data[1]!, 4097),
      feed(offThreadHash(), data[2]!, 1),
      feed(offThreadHash(), data[3]!, 1),
    ]);
    expect(digests).toEqual(data.map(sha256));
  });

  it("makes the writer wait when the worker is behind, and forgets an abandoned stream", async () => {
    const abandoned = offThreadHash();
    let waited = false;
    for (let i = 0; i < 40; i++) {
      const behind = abandoned.update(randomBytes(1 << 20));
      if (behind) {
        waited = true;
        await behind;
      }
    }
    expect(waited).toBe(true);
    abandoned.abandon();
    const data = randomBytes(9 << 20);
    expect(await feed(offThreadHash(), data, 1 << 16)).toBe(sha256(data));
  });
});

describe("streams of the hashing worker", () => {
  it("are forgotten once they end, abandoned or digested, and their rings serve the next ones", async () => {
    const before = openHashStreams();
    const abandoned = [offThreadHash(), offThreadHash()];
    for (const hash of abandoned) {
      const behind = hash.update(randomBytes((2 << 20) + 5));
      if (behind) await behind;
      hash.abandon();
    }
    const data = randomBytes((5 << 20) + 3);
    expect(await feed(offThreadHash(), data, 65_536)).toBe(sha256(data));
    for (let tries = 0; tries < 100 && openHashStreams() > before; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(openHashStreams()).toBe(before);
  });
});
