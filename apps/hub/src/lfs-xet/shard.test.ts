import { describe, expect, it } from "vitest";
import { pseudoRandomBytes } from "./__fixtures__/bytes.js";
import { MalformedShardError, parseShard, type Shard, serializeShard } from "./shard.js";

const h = (seed: number) => pseudoRandomBytes(32, seed);

const sample: Shard = {
  files: [
    {
      fileHash: h(1),
      terms: [
        { xorbHash: h(2), unpackedBytes: 200_000, chunkStart: 0, chunkEnd: 3 },
        { xorbHash: h(3), unpackedBytes: 70_000, chunkStart: 5, chunkEnd: 6 },
      ],
      verification: [h(4), h(5)],
      sha256: h(6),
    },
    { fileHash: h(7), terms: [{ xorbHash: h(2), unpackedBytes: 10, chunkStart: 3, chunkEnd: 4 }] },
  ],
  xorbs: [
    {
      xorbHash: h(2),
      bytesInXorb: 200_010,
      bytesOnDisk: 150_000,
      chunks: [0, 1, 2, 3].map((i) => ({ hash: h(10 + i), byteStart: i * 40_000, unpackedBytes: 50_000 })),
    },
  ],
};

describe("shards", () => {
  it("round-trip files (with verification and sha256) and xorbs", () => {
    const parsed = parseShard(serializeShard(sample));
    expect(parsed.files).toEqual(sample.files);
    expect(parsed.xorbs).toEqual(sample.xorbs);
    expect(parsed.hmacKey).toBeUndefined();
  });

  it("lay out header, sections and footer at the specification's offsets", () => {
    const bytes = serializeShard({ files: [], xorbs: [] }, { hmacKey: h(9), createdAt: 1, keyExpiry: 2n });
    // header 48 + file bookend 48 + cas bookend 48 + footer 200
    expect(bytes.length).toBe(344);
    expect(new TextDecoder().decode(bytes.subarray(0, 14))).toBe("HFRepoMetaData");
    const view = new DataView(bytes.buffer);
    expect(view.getBigUint64(32, true)).toBe(2n);
    expect(view.getBigUint64(40, true)).toBe(200n);
    expect(view.getBigUint64(144 + 8, true)).toBe(48n);
    expect(view.getBigUint64(144 + 16, true)).toBe(96n);
    expect(view.getBigUint64(344 - 8, true)).toBe(144n);
    expect(parseShard(bytes).hmacKey).toEqual(h(9));
  });

  it("write lookup tables sorted by truncated hash, and accept an upload without its footer", () => {
    const bytes = serializeShard(sample);
    // The sections end where the footer's file lookup table starts (its fourth u64).
    const sectionsEnd = Number(new DataView(bytes.buffer).getBigUint64(bytes.length - 200 + 24, true));
    expect(parseShard(bytes.subarray(0, sectionsEnd)).files).toEqual(sample.files);
  });

  it("refuse truncations, a wrong tag or version, and garbage after the sections", () => {
    const bytes = serializeShard(sample);
    for (const cut of [10, 48, 100, 300, bytes.length - 201]) {
      expect(() => parseShard(bytes.subarray(0, cut))).toThrow(MalformedShardError);
    }
    const tag = bytes.slice();
    tag[0] = 0;
    expect(() => parseShard(tag)).toThrow(/magic/);
    const version = bytes.slice();
    version[32] = 3;
    expect(() => parseShard(version)).toThrow(/version/);
    expect(() => parseShard(new Uint8Array([...bytes, 1, 2, 3]))).toThrow(MalformedShardError);
  });
});
