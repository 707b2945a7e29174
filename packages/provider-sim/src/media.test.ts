import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  mediaBytes,
  mediaDataUrl,
  mediaKindForBase64,
  mediaKindForContentType,
  mediaKindForPath,
} from "./media.js";

describe("synthesized media are valid files", () => {
  it("PNG: signature, chunks with correct CRCs, pixel data that inflates to 8 rows", () => {
    const png = mediaBytes("png");
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    let offset = 8;
    const types: string[] = [];
    while (offset < png.length) {
      const length = png.readUInt32BE(offset);
      const typeAndData = png.subarray(offset + 4, offset + 8 + length);
      expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(typeAndData));
      const type = typeAndData.subarray(0, 4).toString("latin1");
      types.push(type);
      if (type === "IDAT") expect(inflateSync(typeAndData.subarray(4)).length).toBe(8 * (1 + 8 * 3));
      offset += 12 + length;
    }
    expect(types).toEqual(["IHDR", "IDAT", "IEND"]);
  });

  it("JPEG: SOI, JFIF, a baseline frame 8x8, EOI", () => {
    const jpeg = mediaBytes("jpeg");
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(jpeg.subarray(6, 10).toString("latin1")).toBe("JFIF");
    const frame = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(jpeg.readUInt16BE(frame + 5)).toBe(8);
    expect(jpeg.readUInt16BE(frame + 7)).toBe(8);
    expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it("WAV: RIFF sizes match the data", () => {
    const wav = mediaBytes("wav");
    expect(wav.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
  });

  it("FLAC, WebP, MP4 and MP3 start as their formats require", () => {
    expect(mediaBytes("flac").subarray(0, 4).toString("latin1")).toBe("fLaC");
    expect(mediaBytes("webp").subarray(8, 12).toString("latin1")).toBe("WEBP");
    expect(mediaBytes("mp4").subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect([...mediaBytes("mp3").subarray(0, 2)]).toEqual([0xff, 0xfb]);
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
