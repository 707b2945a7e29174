import { deflateSync } from "node:zlib";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import {
  type FocusIndicator,
  focusIndicator,
  horizontalOverflow,
  severeAxeFindings,
  watchPage,
} from "./page-checks.js";
import { SEED_ADMIN_TOKEN, SEEDED, seedRepoPages } from "./repo-seed.js";

/**
 * The dataset viewer over an image folder and an audio folder converted by a real hub: thumbnails that load
 * (the browser decodes the files the hub serves, at their own size) and links reached by keyboard, a player
 * whose source is the file, at desktop width and on a phone, each in the light and the dark theme; axe and
 * no sideways scroll.
 */
const PICTURES = `${SEEDED.user}/viewer-pictures`;
const SOUNDS = `${SEEDED.user}/viewer-sounds`;
let harness: WebHarness;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** An RGB PNG of `width`×`height` of one colour. */
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const line = Buffer.from([0, ...Array.from({ length: width }, () => rgb).flat()]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => line)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A mono 16-bit PCM WAV of `frames` samples at 8 kHz (a quiet saw tooth). */
function wav(frames: number): Buffer {
  const data = Buffer.alloc(frames * 2);
  for (let i = 0; i < frames; i++) data.writeInt16LE(((i % 80) - 40) * 200, i * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

async function upload(token: string, name: string, files: Record<string, Buffer>) {
  const create = await fetch(`${harness.hub.url}/api/repos/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ type: "dataset", name }),
  });
  expect(create.status).toBe(200);
  const commit = await fetch(`${harness.hub.url}/api/datasets/${name}/commit/main`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "Add the files" } },
      ...Object.entries(files).map(([path, content]) => ({
        key: "file",
        value: { path, content: content.toString("base64"), encoding: "base64" },
      })),
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  expect(commit.status).toBe(200);
}

beforeAll(async () => {
  harness = await startWebHarness({ adminToken: SEED_ADMIN_TOKEN, viewer: { workers: false } });
  const { token } = await seedRepoPages(harness);
  await upload(token, PICTURES, {
    "train/red/a.png": png(40, 20, [220, 30, 30]),
    "train/blue/b.png": png(12, 30, [30, 30, 220]),
  });
  await upload(token, SOUNDS, {
    "metadata.csv": Buffer.from("file_name,words\nhello.wav,a short tone\n"),
    "hello.wav": wav(4000),
  });
  await harness.hub.viewer!.drain();
}, 180_000);
afterAll(async () => {
  await harness?.close();
});

/** Issue 36 asks for both widths in both themes. */
const RUNS: { name: string; width: number; height: number; colorScheme: ColorScheme }[] = [
  { name: "desktop, light", width: 1366, height: 900, colorScheme: "light" },
  { name: "desktop, dark", width: 1366, height: 900, colorScheme: "dark" },
  { name: "phone, light", width: 390, height: 844, colorScheme: "light" },
  { name: "phone, dark", width: 390, height: 844, colorScheme: "dark" },
];

/** Presses Tab until `target` has the focus (at most `limit` presses), then says how the focus shows. */
async function tabTo(page: Page, target: Locator, limit = 60): Promise<FocusIndicator | null> {
  const handle = await target.elementHandle();
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((element) => document.activeElement === element, handle)) {
      return focusIndicator(page);
    }
  }
  throw new Error(`${target} was not reached with ${limit} presses of Tab`);
}

describe("dataset viewer media", () => {
  for (const run of RUNS) {
    it(`shows thumbnails and an audio player (${run.name})`, async () => {
      const page = await harness.newPage({
        viewport: { width: run.width, height: run.height },
        colorScheme: run.colorScheme,
      });
      const problems = watchPage(page, { expectedStatus: 200 });
      await page.goto(`/datasets/${PICTURES}`);
      await page.getByText("2 rows").waitFor();
      const images = page.getByTestId("viewer-image");
      await expect.poll(() => images.count()).toBe(2);
      // Decoded by the browser from the hub's files: their own sizes, in the rows' order (blue, red).
      await expect
        .poll(() =>
          images.evaluateAll((all) =>
            (all as HTMLImageElement[]).map((image) => [image.naturalWidth, image.naturalHeight]),
          ),
        )
        .toEqual([
          [12, 30],
          [40, 20],
        ]);
      expect(await images.first().getAttribute("alt")).toBe("image of row 0 (12×30)");
      await expect
        .poll(() => page.getByRole("columnheader", { name: /label/ }).innerText())
        .toMatch(/classlabel/i);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      expect(await severeAxeFindings(page, run.colorScheme)).toEqual([]);
      // A thumbnail is a link to the whole image, reached by keyboard, its focus shown.
      const focus = await tabTo(page, page.getByRole("link", { name: "image of row 0 (12×30)" }));
      expect(focus?.width).toBeGreaterThanOrEqual(2);
      expect(focus?.contrast).toBeGreaterThanOrEqual(3);

      await page.goto(`/datasets/${SOUNDS}`);
      await page.getByText("1 rows").or(page.getByText("1 row")).first().waitFor();
      const player = page.getByTestId("viewer-audio");
      await player.waitFor();
      expect(await player.getAttribute("aria-label")).toBe("audio of row 0");
      // The player is reached by keyboard (its controls are its own), its focus shown.
      const playerFocus = await tabTo(page, player);
      expect(playerFocus?.width).toBeGreaterThanOrEqual(2);
      expect(playerFocus?.contrast).toBeGreaterThanOrEqual(3);
      const source = await player.locator("source").first();
      expect(await source.getAttribute("type")).toBe("audio/wav");
      const src = (await source.getAttribute("src"))!;
      const served = await page.request.get(src);
      expect(served.status()).toBe(200);
      expect((await served.body()).subarray(0, 4).toString("latin1")).toBe("RIFF");
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      // Back at the top: scrolled down to the player, the desktop header (sticky) covers the repository
      // header's buttons, which axe's target-size rule counts as obscured.
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await severeAxeFindings(page, run.colorScheme)).toEqual([]);
      expect(problems).toEqual([]);
    }, 180_000);
  }
});
