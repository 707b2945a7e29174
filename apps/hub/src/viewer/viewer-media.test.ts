/**
 * Image and audio folders found as the `datasets` library finds them, image sizes read from their first
 * bytes (checked against Pillow's reading in viewer.e2e.test.ts), and the cells the viewer answers.
 */
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { findDataFiles } from "./data-files.js";
import { folderPlan } from "./viewer-folders.js";
import { queryTerms } from "./viewer-fulltext.js";
import { audioType, imageSize, presentMedia } from "./viewer-media.js";

describe("image and audio folders", () => {
  it("are the config's format when most files are images or audio, metadata files kept beside them", () => {
    const configs = findDataFiles(
      ["train/metadata.csv", "train/a.png", "train/b.JPG", "test/c.png", "test/metadata.csv", "notes.txt"],
      undefined,
    );
    expect(configs).toEqual([
      {
        config: "default",
        format: "imagefolder",
        splits: [
          { split: "train", paths: ["train/a.png", "train/b.JPG", "train/metadata.csv"] },
          { split: "test", paths: ["test/c.png", "test/metadata.csv"] },
        ],
      },
    ]);
    expect(folderPlan(configs[0]!)).toEqual({ withMetadata: true, labels: undefined });
    expect(findDataFiles(["a.wav", "b.mp3", "metadata.jsonl"], undefined)[0]!.format).toBe("audiofolder");
    // A CSV dataset's metadata.csv is its data.
    expect(findDataFiles(["metadata.csv"], undefined)[0]!.format).toBe("csv");
  });

  it("label rows by folder when files sit at one depth in several folders, as the library does", () => {
    const plan = (paths: string[]) => folderPlan(findDataFiles(paths, undefined)[0]!);
    expect(plan(["cats/a.png", "dogs/b.png", "cats/c.png"])).toEqual({
      withMetadata: false,
      labels: ["cats", "dogs"],
    });
    expect(plan(["cats/a.png", "cats/b.png"]).labels).toBeUndefined();
    expect(plan(["cats/a.png", "dogs/more/b.png"]).labels).toBeUndefined();
  });
});

describe("image sizes", () => {
  const pngOf = (width: number, height: number) => {
    const header = Buffer.alloc(25);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
    header.writeUInt32BE(13, 8);
    header.write("IHDR", 12, "latin1");
    header.writeUInt32BE(width, 16);
    header.writeUInt32BE(height, 20);
    return Buffer.concat([header, deflateSync(Buffer.alloc(4))]);
  };

  it("reads PNG, GIF, BMP and JPEG headers, and nothing from other bytes", () => {
    expect(imageSize(pngOf(640, 480))).toEqual({ width: 640, height: 480 });
    const gif = Buffer.from("GIF89a\x10\x00\x20\x00", "latin1");
    expect(imageSize(gif)).toEqual({ width: 16, height: 32 });
    const bmp = Buffer.alloc(30);
    bmp.write("BM", 0, "latin1");
    bmp.writeInt32LE(7, 18);
    bmp.writeInt32LE(-9, 22);
    expect(imageSize(bmp)).toEqual({ width: 7, height: 9 });
    // JPEG: an APP0 segment, then a baseline frame header (SOF0) of 300x200.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0xc8, 0x01, 0x2c,
      0x03,
    ]);
    expect(imageSize(Buffer.concat([jpeg, Buffer.alloc(16)]))).toEqual({ width: 300, height: 200 });
    expect(imageSize(Buffer.from("not an image at all, really"))).toBeUndefined();
  });
});

describe("cells", () => {
  it("are the public viewer's: {src, height, width} and [{src, type}]", () => {
    const head = pngHead();
    const row = presentMedia(
      { image: { path: "train/a b.png", head }, audio: { path: "x/y.flac" }, n: 1, none: null },
      [
        { name: "image", kind: "image" },
        { name: "audio", kind: "audio" },
      ],
      (path) => `https://hub.example/resolve/abc/${encodeURIComponent(path)}`,
    );
    expect(row).toEqual({
      image: { src: "https://hub.example/resolve/abc/train%2Fa%20b.png", height: 2, width: 3 },
      audio: [{ src: "https://hub.example/resolve/abc/x%2Fy.flac", type: "audio/flac" }],
      n: 1,
      none: null,
    });
    // Files only inside the Parquet file: data URLs of their bytes.
    const embedded = presentMedia(
      { image: { path: "a.png", head } },
      [{ name: "image", kind: "image" }],
      undefined,
    );
    expect((embedded.image as { src: string }).src).toBe(`data:image/png;base64,${head}`);
    expect(audioType("a.WAV")).toBe("audio/wav");
  });

  function pngHead() {
    const bytes = Buffer.alloc(24);
    Buffer.from([0x89, 0x50, 0x4e, 0x47]).copy(bytes);
    bytes.writeUInt32BE(3, 16);
    bytes.writeUInt32BE(2, 20);
    return bytes.toString("base64");
  }
});

describe("query words", () => {
  it("fold case and accents, split on anything but letters and digits, and leave stop words out", () => {
    expect(queryTerms("The CAFÉ, crème-brûlée & 42 日本!")).toEqual([
      "cafe",
      "creme",
      "brulee",
      "42",
      "日本",
    ]);
    expect(queryTerms("the of and")).toEqual([]);
    expect(queryTerms('x") OR "1')).toEqual(["1"]);
  });
});
