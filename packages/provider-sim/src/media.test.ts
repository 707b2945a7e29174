import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  mediaBytes,
  mediaDataUrl,
  mediaKindForBase64,
  mediaKindForContentType,
  mediaKindForPath,
  SIMULATOR_MARK,
} from "./media.js";

/** The data of the `index`-th chunk of a PNG. */
function chunkData(png: Buffer, index: number): Buffer {
  let offset = 8;
  for (let i = 0; i < index; i++) offset += 12 + png.readUInt32BE(offset);
  return png.subarray(offset + 8, offset + 8 + png.readUInt32BE(offset));
}

describe("the simulator's media are real files at plausible sizes, marked as simulated", () => {
  it("PNG: signature, chunks with correct CRCs, 512x512 pixels that inflate", () => {
    const png = mediaBytes("png");
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    let offset = 8;
    const types: string[] = [];
    while (offset < png.length) {
      const length = png.readUInt32BE(offset);
      const typeAndData = png.subarray(offset + 4, offset + 8 + length);
      expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(typeAndData));
      types.push(typeAndData.subarray(0, 4).toString("latin1"));
      offset += 12 + length;
    }
    expect(png.readUInt32BE(16)).toBe(512);
    expect(png.readUInt32BE(20)).toBe(512);
    expect(types[0]).toBe("IHDR");
    expect(types).toContain("tEXt");
    expect(types.at(-1)).toBe("IEND");
    const idat = Buffer.concat(
      types.flatMap((type, index) => (type === "IDAT" ? [chunkData(png, index)] : [])),
    );
    expect(inflateSync(idat).length).toBeGreaterThanOrEqual(512 * 512);
  });

  it("JPEG: SOI, a 512x512 baseline frame, EOI", () => {
    const jpeg = mediaBytes("jpeg");
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    const frame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(jpeg.readUInt16BE(frame + 5)).toBe(512);
    expect(jpeg.readUInt16BE(frame + 7)).toBe(512);
    expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it("WAV: RIFF sizes match, 16 kHz PCM, more than a second of sound", () => {
    const wav = mediaBytes("wav");
    expect(wav.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.readUInt32LE(24)).toBe(16_000);
    const data = wav.indexOf("data", 12, "latin1");
    expect(wav.readUInt32LE(data + 4) / (16_000 * 2)).toBeGreaterThan(1);
  });

  it("FLAC, WebP, MP4 (H.264) and MP3 start as their formats require", () => {
    expect(mediaBytes("flac").subarray(0, 4).toString("latin1")).toBe("fLaC");
    expect(mediaBytes("webp").subarray(8, 12).toString("latin1")).toBe("WEBP");
    const mp4 = mediaBytes("mp4");
    expect(mp4.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(mp4.includes("avc1", 0, "latin1")).toBe(true);
    expect(mp4.length).toBeGreaterThan(4096);
    expect(mediaBytes("mp3").subarray(0, 3).toString("latin1")).toBe("ID3");
  });

  it("every file carries the simulator's mark in its first 64 KB", () => {
    for (const kind of ["png", "jpeg", "webp", "wav", "flac", "mp4", "mp3"] as const) {
      expect(mediaBytes(kind).subarray(0, 65_536).includes(SIMULATOR_MARK, 0, "latin1"), kind).toBe(true);
    }
  });

  it("names kinds from paths, content types and base64 prefixes", () => {
    expect(mediaKindForPath("/media/replicate.delivery/x/out-0.webp")).toBe("webp");
    expect(mediaKindForPath("/media/bfl/sample.jpg")).toBe("jpeg");
    expect(mediaKindForContentType("audio/x-wav")).toBe("wav");
    expect(mediaKindForContentType("image/jpeg; q=1")).toBe("jpeg");
    expect(mediaKindForBase64(mediaBytes("png").toString("base64"))).toBe("png");
    expect(mediaKindForBase64(mediaBytes("webp").toString("base64"))).toBe("webp");
    expect(mediaKindForBase64(mediaBytes("wav").toString("base64"))).toBe("wav");
    expect(mediaDataUrl("jpeg")).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });
});
