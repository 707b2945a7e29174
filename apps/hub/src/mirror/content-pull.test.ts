import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import {
  ContentMismatchError,
  createContentPuller,
  type DeclaredContent,
  type PullSource,
  TransferCutError,
  TransferStalledError,
} from "./content-pull.js";

const temp = makeTempDir("content-pull-");
afterAll(() => temp.remove());

function declared(bytes: Buffer): DeclaredContent {
  return { sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
}

interface FakeUpstream {
  source: () => PullSource;
  starts: number;
  kept: Buffer[];
}

/**
 * An upstream sending `bytes` in pieces of `piece` bytes, `delayMs` apart; `fault` changes what it does:
 * cut after half, flip a byte, answer with a refusal, or stall after half.
 */
function fakeUpstream(
  bytes: Buffer,
  options: {
    piece?: number;
    delayMs?: number;
    fault?: "cut" | "flip" | "refuse" | "stall" | "long";
    /** Holds the bytes from `offset` on until `until` settles (a transfer caught mid-way, however loaded the machine). */
    hold?: { offset: number; until: Promise<void> };
  } = {},
): FakeUpstream {
  const piece = options.piece ?? 64 * 1024;
  const upstream: FakeUpstream = {
    starts: 0,
    kept: [],
    source: () => ({
      async start(signal) {
        upstream.starts++;
        if (options.fault === "refuse") throw new Error("upstream answered 429 Too Many Requests");
        return (async function* () {
          for (let at = 0; at < bytes.length; at += piece) {
            if (options.delayMs) await sleep(options.delayMs);
            if (options.hold && at >= options.hold.offset) await options.hold.until;
            if (at >= bytes.length / 2 && options.fault === "cut") throw new Error("socket hang up");
            if (at >= bytes.length / 2 && options.fault === "stall") {
              await new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
            }
            let out = bytes.subarray(at, at + piece);
            if (options.fault === "flip" && at === 0) {
              out = Buffer.from(out);
              out[0] = (out[0] as number) ^ 0xff;
            }
            yield out;
          }
          if (options.fault === "long") yield Buffer.from("extra");
        })();
      },
      async keep(tmpPath) {
        const { readFile } = await import("node:fs/promises");
        upstream.kept.push(await readFile(tmpPath));
      },
    }),
  };
  return upstream;
}

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** What a reader got before its stream ended, and how it ended. */
async function settle(stream: Readable): Promise<{ received: number; error?: Error }> {
  let received = 0;
  try {
    for await (const part of stream) received += (part as Buffer).length;
    return { received };
  } catch (error) {
    return { received, error: error as Error };
  }
}

/**
 * An answer body read as @hono/node-server's writer reads it: each piece used (copied here) before the next
 * is asked for. Counts the distinct buffers the pieces came in (reused: a handful for any size).
 */
async function drainBody(body: ReadableStream<Uint8Array>): Promise<{
  bytes: Buffer;
  buffers: number;
  error?: Error;
}> {
  const parts: Buffer[] = [];
  const buffers = new Set<ArrayBufferLike>();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffers.add(value.buffer);
      parts.push(Buffer.from(value));
    }
    return { bytes: Buffer.concat(parts), buffers: buffers.size };
  } catch (error) {
    return { bytes: Buffer.concat(parts), buffers: buffers.size, error: error as Error };
  }
}

const whole = (content: DeclaredContent) => ({ start: 0, end: content.size - 1 });
/** A fresh tmp directory per test: a test's leftovers (or a background transfer) never blur another's. */
let tmpCount = 0;
function freshTmp(): string {
  const dir = join(temp.dir, String(tmpCount++));
  mkdirSync(dir);
  return dir;
}
const tmpFiles = (dir: string) => readdirSync(dir);

describe("content puller", () => {
  it("serves 32 concurrent readers byte-identical from one transfer, late joiners included", async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const content = declared(bytes);
    const upstream = fakeUpstream(bytes, { delayMs: 2 });
    const tmpDir = freshTmp();
    const puller = createContentPuller({ tmpDir });
    const early = Array.from({ length: 24 }, () => puller.read(content, whole(content), upstream.source));
    await sleep(40);
    expect(puller.isReading(content.sha256)).toBe(true);
    const late = Array.from({ length: 8 }, () => puller.read(content, whole(content), upstream.source));
    const results = await Promise.all([...early, ...late].map(async (stream) => collect(await stream)));
    expect(upstream.starts).toBe(1);
    for (const result of results) expect(result.equals(bytes)).toBe(true);
    await vi.waitFor(() => expect(puller.isReading(content.sha256)).toBe(false));
    expect(upstream.kept).toHaveLength(1);
    expect(upstream.kept[0]?.equals(bytes)).toBe(true);
    expect(tmpFiles(tmpDir)).toEqual([]);
  });

  it("serves a reader that joins late (and a ranged one) from the transfer file while the first reads on", async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 5);
    const content = declared(bytes);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The transfer waits past 10 MiB until the late readers have joined, so that they join a running one.
    const hold = { offset: 10 * 1024 * 1024 + 256 * 1024, until: released };
    const upstream = fakeUpstream(bytes, { piece: 256 * 1024, delayMs: 2, hold });
    const puller = createContentPuller({ tmpDir: freshTmp() });
    const first = await puller.read(content, whole(content), upstream.source);
    const firstParts: Buffer[] = [];
    let firstBytes = 0;
    first.on("data", (part: Buffer) => {
      firstParts.push(part);
      firstBytes += part.length;
    });
    const firstDone = new Promise((resolve) => first.once("end", resolve));
    await vi.waitFor(() => expect(firstBytes).toBeGreaterThan(10 * 1024 * 1024), { timeout: 30_000 });
    expect(puller.isReading(content.sha256)).toBe(true);
    const [joiner, ranged] = await Promise.all([
      puller.read(content, whole(content), upstream.source),
      puller.read(content, { start: 1000, end: 9 * 1024 * 1024 }, upstream.source),
    ]);
    release();
    expect((await collect(joiner)).equals(bytes)).toBe(true);
    expect((await collect(ranged)).equals(bytes.subarray(1000, 9 * 1024 * 1024 + 1))).toBe(true);
    await firstDone;
    expect(Buffer.concat(firstParts).equals(bytes)).toBe(true);
    expect(upstream.starts).toBe(1);
  });

  it("streams the first bytes before the transfer ends", async () => {
    const bytes = randomBytes(1024 * 1024);
    const content = declared(bytes);
    const upstream = fakeUpstream(bytes, { piece: 64 * 1024, delayMs: 20 });
    const tmpDir = freshTmp();
    const puller = createContentPuller({ tmpDir });
    const stream = await puller.read(content, whole(content), upstream.source);
    const first = await new Promise<Buffer>((resolve) => stream.once("data", resolve));
    expect(first.length).toBeGreaterThan(0);
    expect(puller.isReading(content.sha256)).toBe(true);
    stream.destroy();
  });

  it("serves ranges from the growing file", async () => {
    const bytes = randomBytes(512 * 1024);
    const content = declared(bytes);
    const upstream = fakeUpstream(bytes, { delayMs: 1, piece: 16 * 1024 });
    const tmpDir = freshTmp();
    const puller = createContentPuller({ tmpDir });
    const [a, b] = await Promise.all([
      puller.read(content, { start: 1000, end: 1999 }, upstream.source),
      puller.read(content, { start: 300_000, end: content.size - 1 }, upstream.source),
    ]);
    expect((await collect(a)).equals(bytes.subarray(1000, 2000))).toBe(true);
    expect((await collect(b)).equals(bytes.subarray(300_000))).toBe(true);
    expect(upstream.starts).toBe(1);
  });

  it("keeps transferring for the others when a reader goes away", async () => {
    const bytes = randomBytes(1024 * 1024);
    const content = declared(bytes);
    const upstream = fakeUpstream(bytes, { delayMs: 2 });
    const tmpDir = freshTmp();
    const puller = createContentPuller({ tmpDir });
    const [leaving, staying] = await Promise.all([
      puller.read(content, whole(content), upstream.source),
      puller.read(content, whole(content), upstream.source),
    ]);
    await new Promise((resolve) => leaving.once("data", resolve));
    leaving.destroy();
    expect((await collect(staying)).equals(bytes)).toBe(true);
    await vi.waitFor(() => expect(upstream.kept).toHaveLength(1));
  });

  it("does not wait for a reader that stopped reading", async () => {
    const bytes = randomBytes(4 * 1024 * 1024);
    const content = declared(bytes);
    const upstream = fakeUpstream(bytes);
    const tmpDir = freshTmp();
    const puller = createContentPuller({ tmpDir });
    const [paused, reading] = await Promise.all([
      puller.read(content, whole(content), upstream.source),
      puller.read(content, whole(content), upstream.source),
    ]);
    paused.pause();
    expect((await collect(reading)).equals(bytes)).toBe(true);
    await vi.waitFor(() => expect(upstream.kept).toHaveLength(1));
    // The paused reader still gets everything once it reads (from the file, not from memory).
    expect((await collect(paused.resume())).equals(bytes)).toBe(true);
  });

  for (const [fault, errorClass] of [
    ["cut", TransferCutError],
    ["flip", ContentMismatchError],
    ["long", ContentMismatchError],
  ] as const) {
    it(`errors every reader and keeps nothing when upstream's body is ${fault}; the next read retries`, async () => {
      const bytes = randomBytes(1024 * 1024);
      const content = declared(bytes);
      const faulty = fakeUpstream(bytes, { fault, delayMs: 1 });
      const tmpDir = freshTmp();
      const puller = createContentPuller({ tmpDir });
      const readers = await Promise.all(
        Array.from({ length: 4 }, () => puller.read(content, whole(content), faulty.source)),
      );
      const outcomes = await Promise.all(readers.map(settle));
      for (const outcome of outcomes) {
        expect(outcome.error).toBeInstanceOf(errorClass);
        // Never the whole body: the client sees it short of its Content-Length.
        expect(outcome.received).toBeLessThan(content.size);
      }
      expect(faulty.kept).toHaveLength(0);
      expect(puller.isReading(content.sha256)).toBe(false);
      expect(tmpFiles(tmpDir)).toEqual([]);

      const healthy = fakeUpstream(bytes);
      expect((await collect(await puller.read(content, whole(content), healthy.source))).equals(bytes)).toBe(
        true,
      );
      expect(healthy.starts).toBe(1);
    });
  }

  it("verifies a large content (9 MiB): a flipped byte refused, the right bytes kept", async () => {
    const bytes = randomBytes(9 * 1024 * 1024);
    const content = declared(bytes);
    const puller = createContentPuller({ tmpDir: freshTmp() });
    const flipped = fakeUpstream(bytes, { fault: "flip", piece: 256 * 1024 });
    const outcome = await settle(await puller.read(content, whole(content), flipped.source));
    expect(outcome.error).toBeInstanceOf(ContentMismatchError);
    expect(flipped.kept).toHaveLength(0);
    const healthy = fakeUpstream(bytes, { piece: 256 * 1024 });
    expect((await collect(await puller.read(content, whole(content), healthy.source))).equals(bytes)).toBe(
      true,
    );
    await vi.waitFor(() => expect(healthy.kept).toHaveLength(1));
    expect(healthy.kept[0]?.equals(bytes)).toBe(true);
  });

  it("rejects the read when upstream refuses, and retries on the next", async () => {
    const bytes = randomBytes(1000);
    const content = declared(bytes);
    const tmpDir = freshTmp();
    const puller = createContentPuller({ tmpDir });
    const refusing = fakeUpstream(bytes, { fault: "refuse" });
    await expect(puller.read(content, whole(content), refusing.source)).rejects.toThrow(/429/);
    expect(puller.isReading(content.sha256)).toBe(false);
    const healthy = fakeUpstream(bytes);
    expect((await collect(await puller.read(content, whole(content), healthy.source))).equals(bytes)).toBe(
      true,
    );
  });

  it("fetches without a reader, resolving once kept, and rejects when the transfer fails", async () => {
    const bytes = randomBytes(300_000);
    const content = declared(bytes);
    const tmpDir = freshTmp();
    const puller = createContentPuller({ tmpDir });
    await expect(puller.fetch(content, fakeUpstream(bytes, { fault: "flip" }).source)).rejects.toBeInstanceOf(
      ContentMismatchError,
    );
    const healthy = fakeUpstream(bytes, { delayMs: 1 });
    // A reader and a prefetch of the same content share one transfer.
    const reading = puller.read(content, whole(content), healthy.source);
    await puller.fetch(content, healthy.source);
    expect(healthy.kept).toHaveLength(1);
    expect(healthy.starts).toBe(1);
    expect((await collect(await reading)).equals(bytes)).toBe(true);
    expect(tmpFiles(tmpDir)).toEqual([]);
  });

  it("answers bodies in reused buffers, from memory while they keep up and from the file once behind", async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 3);
    const content = declared(bytes);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Past 10 MiB the transfer waits for the late bodies: what they read first has left the memory window.
    const hold = { offset: 10 * 1024 * 1024, until: released };
    const upstream = fakeUpstream(bytes, { delayMs: 1, hold });
    const puller = createContentPuller({ tmpDir: freshTmp() });
    const early = await Promise.all(
      Array.from({ length: 4 }, () => puller.body(content, whole(content), upstream.source)),
    );
    const earlyDone = early.map(drainBody);
    await vi.waitFor(() => expect(puller.transfersInFlight).toBe(1));
    await sleep(50);
    const [late, ranged] = await Promise.all([
      puller.body(content, whole(content), upstream.source),
      puller.body(content, { start: 700_001, end: 5 * 1024 * 1024 }, upstream.source),
    ]);
    const lateDone = drainBody(late);
    const rangedDone = drainBody(ranged);
    release();
    for (const result of [...(await Promise.all(earlyDone)), await lateDone]) {
      expect(result.error).toBeUndefined();
      expect(result.bytes.equals(bytes)).toBe(true);
      // 12 MiB in 512 KiB pieces: 25 pieces or more, in at most 8 buffers.
      expect(result.buffers).toBeLessThanOrEqual(8);
    }
    expect((await rangedDone).bytes.equals(bytes.subarray(700_001, 5 * 1024 * 1024 + 1))).toBe(true);
    expect(upstream.starts).toBe(1);
    await vi.waitFor(() => expect(upstream.kept).toHaveLength(1));
  });

  for (const [fault, errorClass] of [
    ["cut", TransferCutError],
    ["flip", ContentMismatchError],
  ] as const) {
    it(`errors every answer body short of its length when upstream's body is ${fault}`, async () => {
      const bytes = randomBytes(2 * 1024 * 1024);
      const content = declared(bytes);
      const faulty = fakeUpstream(bytes, { fault, delayMs: 1 });
      const tmpDir = freshTmp();
      const puller = createContentPuller({ tmpDir });
      const bodies = await Promise.all(
        Array.from({ length: 3 }, () => puller.body(content, whole(content), faulty.source)),
      );
      for (const outcome of await Promise.all(bodies.map(drainBody))) {
        expect(outcome.error).toBeInstanceOf(errorClass);
        expect(outcome.bytes.length).toBeLessThan(content.size);
      }
      expect(faulty.kept).toHaveLength(0);
      expect(tmpFiles(tmpDir)).toEqual([]);
      const healthy = fakeUpstream(bytes);
      const retried = await drainBody(await puller.body(content, whole(content), healthy.source));
      expect(retried.bytes.equals(bytes)).toBe(true);
    });
  }

  it("abandons a stalled transfer after the idle timeout", async () => {
    const bytes = randomBytes(256 * 1024);
    const content = declared(bytes);
    const tmpDir = freshTmp();
    const puller = createContentPuller({ tmpDir, idleTimeoutMs: 200 });
    const stalling = fakeUpstream(bytes, { fault: "stall" });
    const started = Date.now();
    const outcome = await settle(await puller.read(content, whole(content), stalling.source));
    expect(outcome.error).toBeInstanceOf(TransferStalledError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stalling.kept).toHaveLength(0);
    expect(tmpFiles(tmpDir)).toEqual([]);
  });
});
