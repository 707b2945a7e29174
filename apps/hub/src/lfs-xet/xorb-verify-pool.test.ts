import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pseudoRandomBytes } from "./__fixtures__/bytes.js";
import { chunkRanges } from "./chunker.js";
import { hashToHex, loadXetHashing } from "./hashes.js";
import { Compression, MalformedXorbError, serializeXorb, XorbHashMismatchError } from "./xorb.js";
import { verifyXorb } from "./xorb-stream.js";
import { fileSha256FromUploads, offThreadXorbVerification } from "./xorb-verify-pool.js";

/** A xorb of `bytes` bytes (half compressible), its hash, and its bytes cut into pieces of uneven sizes. */
async function sample(bytes: number, seed: number, compression = Compression.Lz4) {
  const hashing = await loadXetHashing();
  const data = pseudoRandomBytes(bytes, seed);
  data.fill(7, 0, bytes >> 1);
  const chunks = chunkRanges(data).map((r) => data.subarray(r.start, r.end));
  const hash = hashing.xorbHash(chunks.map((c) => ({ hash: hashing.chunkHash(c), size: c.length })));
  const xorb = serializeXorb(chunks, compression);
  const pieces: Uint8Array[] = [];
  // Socket-read-like pieces: some smaller than a chunk header, some over a batch, most in between.
  const sizes = [3, 5, 70_000, 1, 2_500_000, 65_536, 9, 300_000];
  for (let at = 0, i = 0; at < xorb.length; i++) {
    const size = sizes[i % sizes.length] as number;
    pieces.push(xorb.slice(at, at + size));
    at += size;
  }
  return { hashing, hash, xorb, pieces, chunks };
}

async function verifyOffThread(pieces: Uint8Array[], expected: Uint8Array) {
  return verifyOffThreadAs("", pieces, expected);
}

async function verifyOffThreadAs(uploader: string, pieces: Uint8Array[], expected: Uint8Array) {
  const verification = offThreadXorbVerification(uploader);
  try {
    for (const piece of pieces) {
      const behind = verification.push(piece);
      if (behind) await behind;
    }
    return await verification.finish(expected);
  } catch (error) {
    verification.abandon();
    throw error;
  }
}

describe("xorb verification on the worker pool", () => {
  // First in this file: the pool's chains start here.
  it("answers the sha256 of a file whose xorbs were verified one after another, from that same pass", async () => {
    const one = await sample(3_000_000, 41, Compression.Lz4);
    const two = await sample(2_000_000, 42, Compression.ByteGrouping4Lz4);
    await verifyOffThread(one.pieces, one.hash);
    await verifyOffThread(two.pieces, two.hash);
    const [a, b] = [hashToHex(one.hash), hashToHex(two.hash)];
    const counts = (xorb: string) => (xorb === a ? one.chunks.length : two.chunks.length);
    const sha256 = (parts: Uint8Array[]) => {
      const hash = createHash("sha256");
      for (const part of parts) hash.update(part);
      return hash.digest("hex");
    };
    const end = 5;
    const terms = [
      { xorb: a, start: 0, end: one.chunks.length },
      { xorb: b, start: 0, end },
    ];
    expect(fileSha256FromUploads(terms, counts)).toBe(sha256([...one.chunks, ...two.chunks.slice(0, end)]));
    expect(fileSha256FromUploads([{ xorb: a, start: 0, end: 3 }], counts)).toBe(
      sha256(one.chunks.slice(0, 3)),
    );
    // Not from a chain's start: undefined, the caller reads the bytes back.
    expect(fileSha256FromUploads([{ xorb: b, start: 0, end }], counts)).toBeUndefined();
    expect(fileSha256FromUploads([{ xorb: a, start: 1, end: 3 }], counts)).toBeUndefined();
    // A refused xorb breaks no chain's answers and starts none.
    await expect(verifyOffThread(two.pieces, one.hash)).rejects.toBeInstanceOf(XorbHashMismatchError);
    expect(fileSha256FromUploads(terms, counts)).toBe(sha256([...one.chunks, ...two.chunks.slice(0, end)]));
  });

  it("answers it for xorbs sent at once (as hf_xet sends two), holding the later one back", async () => {
    const one = await sample(3_000_000, 51, Compression.Lz4);
    const two = await sample(2_000_000, 52, Compression.None);
    const [a, b] = [hashToHex(one.hash), hashToHex(two.hash)];
    const counts = (xorb: string) => (xorb === a ? one.chunks.length : two.chunks.length);
    const sha256 = (parts: Uint8Array[]) =>
      parts.reduce((h, p) => h.update(p), createHash("sha256")).digest("hex");
    const send = async (verification: ReturnType<typeof offThreadXorbVerification>, pieces: Uint8Array[]) => {
      for (const piece of pieces) {
        const behind = verification.push(piece);
        if (behind) await behind;
      }
    };
    // Both requests open before either is done, their pieces interleaved: the second waits for the first.
    const first = offThreadXorbVerification("hf_xet session");
    const second = offThreadXorbVerification("hf_xet session");
    const order: string[] = [];
    const sending = [
      send(first, one.pieces).then(() => first.finish(one.hash).then(() => order.push("a"))),
      send(second, two.pieces).then(() => second.finish(two.hash).then(() => order.push("b"))),
    ];
    await Promise.all(sending);
    expect(order).toEqual(["a", "b"]);
    const terms = [
      { xorb: a, start: 0, end: one.chunks.length },
      { xorb: b, start: 0, end: two.chunks.length },
    ];
    expect(fileSha256FromUploads(terms, counts)).toBe(sha256([...one.chunks, ...two.chunks]));

    // The first refused: the second still ends (verified, on no chain), and no file is answered from them.
    const third = offThreadXorbVerification("hf_xet session 2");
    const fourth = offThreadXorbVerification("hf_xet session 2");
    const refused = send(third, one.pieces).then(() => third.finish(two.hash));
    const after = send(fourth, two.pieces).then(() => fourth.finish(two.hash));
    await expect(refused).rejects.toBeInstanceOf(XorbHashMismatchError);
    third.abandon();
    expect(await after).toHaveLength(two.chunks.length);
    expect(fileSha256FromUploads([{ xorb: b, start: 0, end: two.chunks.length }], counts)).toBeUndefined();
  });

  it("lets a queued xorb go on when the one before it stalls, and gives their chain up", async () => {
    const one = await sample(2_000_000, 61, Compression.None);
    const two = await sample(2_000_000, 62, Compression.None);
    const stalled = offThreadXorbVerification("stalling session");
    const behind = stalled.push(one.pieces[0] as Uint8Array);
    if (behind) await behind;
    // Its client sends nothing more; the next xorb waits 50 ms for it, then is verified all the same.
    const next = offThreadXorbVerification("stalling session", 50);
    for (const piece of two.pieces) {
      const wait = next.push(piece);
      if (wait) await wait;
    }
    expect(await next.finish(two.hash)).toHaveLength(two.chunks.length);
    const b = hashToHex(two.hash);
    expect(
      fileSha256FromUploads([{ xorb: b, start: 0, end: two.chunks.length }], () => two.chunks.length),
    ).toBeUndefined();
    stalled.abandon();
    // The session's next xorb starts a chain of its own, answered as usual.
    await verifyOffThreadAs("stalling session", one.pieces, one.hash);
    const a = hashToHex(one.hash);
    expect(
      fileSha256FromUploads([{ xorb: a, start: 0, end: one.chunks.length }], () => one.chunks.length),
    ).toBe(createHash("sha256").update(Buffer.concat(one.chunks)).digest("hex"));
  });

  it.each([Compression.None, Compression.Lz4, Compression.ByteGrouping4Lz4])(
    "answers what the in-thread verifier answers, whatever the pieces (compression %i)",
    async (compression) => {
      const { hashing, hash, xorb, pieces } = await sample(6_000_000, 3, compression);
      const offThread = await verifyOffThread(pieces, hash);
      expect(offThread.length).toBeGreaterThan(40);
      expect(offThread).toEqual(verifyXorb(xorb, hash, hashing));
    },
  );

  it("verifies many xorbs at once, each against its own hash", async () => {
    const samples = await Promise.all([11, 12, 13, 14, 15, 16].map((seed) => sample(2_000_000, seed)));
    const results = await Promise.all(samples.map((s) => verifyOffThread(s.pieces, s.hash)));
    for (const [i, result] of results.entries()) {
      const { hashing, hash, xorb } = samples[i]!;
      expect(result).toEqual(verifyXorb(xorb, hash, hashing));
    }
  });

  it("refuses a xorb that does not hash to the expected hash", async () => {
    const { pieces } = await sample(3_000_000, 21);
    await expect(verifyOffThread(pieces, new Uint8Array(32))).rejects.toBeInstanceOf(XorbHashMismatchError);
  });

  it("refuses a malformed xorb as soon as the worker sees it, and stays usable after", async () => {
    const { hash, pieces } = await sample(8_000_000, 22);
    const corrupt = pieces.map((p) => p.slice());
    (corrupt[0] as Uint8Array)[0] = 9; // version 9: refused at the first chunk header
    const verification = offThreadXorbVerification();
    let refusedAt = -1;
    try {
      for (const [i, piece] of corrupt.entries()) {
        const behind = verification.push(piece);
        if (behind) await behind;
        // The refusal crosses threads: give it a moment, as socket reads would.
        await new Promise((resolve) => setTimeout(resolve, 5));
        refusedAt = i;
      }
      await verification.finish(hash);
      refusedAt = -2;
    } catch (error) {
      expect(error).toBeInstanceOf(MalformedXorbError);
      expect((error as Error).message).toMatch(/^Malformed xorb: chunk 0 has version 9/);
    } finally {
      verification.abandon();
    }
    expect(refusedAt).toBeGreaterThanOrEqual(0);
    expect(refusedAt).toBeLessThan(corrupt.length - 1);
    const good = await sample(1_000_000, 23);
    await expect(verifyOffThread(good.pieces, good.hash)).resolves.toHaveLength(
      verifyXorb(good.xorb, good.hash, good.hashing).length,
    );
  });

  it("refuses a truncated xorb at its end", async () => {
    const { hash, xorb } = await sample(2_000_000, 24);
    await expect(verifyOffThread([xorb.subarray(0, xorb.length - 11)], hash)).rejects.toBeInstanceOf(
      MalformedXorbError,
    );
  });
});
