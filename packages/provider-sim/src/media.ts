import { deflateSync } from "node:zlib";

/**
 * Tiny but valid media files. The recording kept no binary bodies and truncated long base64, so the sim
 * makes its own: decoders (browsers, `file`, ffprobe) accept every one of these.
 */

export type MediaKind = "png" | "jpeg" | "webp" | "wav" | "flac" | "mp4" | "mp3";

export const MEDIA_CONTENT_TYPES: Record<MediaKind, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  wav: "audio/wav",
  flac: "audio/flac",
  mp4: "video/mp4",
  mp3: "audio/mpeg",
};

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** An 8x8 RGB PNG with a gradient, so it is visibly an image. */
function makePng(size = 8): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push((x * 255) / size, (y * 255) / size, 128);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.from(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function jpegSegment(marker: number, payload: number[]): number[] {
  const length = payload.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...payload];
}

/**
 * An 8x8 grey baseline JPEG. One block whose DC difference and AC coefficients are all zero, coded with
 * one-symbol Huffman tables (code "0"), so the whole scan is the bits "00" padded with ones.
 */
function makeJpeg(): Buffer {
  const jfif = [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const quantisation = [0x00, ...new Array<number>(64).fill(1)];
  const frame = [8, 0, 8, 0, 8, 1, 1, 0x11, 0];
  const oneCode = [1, ...new Array<number>(15).fill(0), 0x00];
  const scan = [1, 1, 0x00, 0, 63, 0];
  return Buffer.from([
    0xff,
    0xd8,
    ...jpegSegment(0xe0, jfif),
    ...jpegSegment(0xdb, quantisation),
    ...jpegSegment(0xc0, frame),
    ...jpegSegment(0xc4, [0x00, ...oneCode]),
    ...jpegSegment(0xc4, [0x10, ...oneCode]),
    ...jpegSegment(0xda, scan),
    0x3f,
    0xff,
    0xd9,
  ]);
}

// A 1x1 lossless WebP.
const WEBP_1X1 = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==";

/** 0.1 s of a 440 Hz tone, 16-bit mono PCM at 8 kHz. */
function makeWav(sampleRate = 8000, seconds = 0.1): Buffer {
  const samples = Math.round(sampleRate * seconds);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 8000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A FLAC stream: the marker and a STREAMINFO block (8 kHz mono 16-bit, no frames: silence of length 0). */
function makeFlac(): Buffer {
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0); // min block size
  info.writeUInt16BE(4096, 2); // max block size
  // bytes 4-9: min/max frame size unknown (0); then 20 bits rate, 3 bits channels-1, 5 bits bps-1, 36 bits samples
  const sampleRate = 8000;
  info[10] = (sampleRate >> 12) & 0xff;
  info[11] = (sampleRate >> 4) & 0xff;
  info[12] = ((sampleRate & 0x0f) << 4) | (0 << 1) | ((15 >> 4) & 0x01);
  info[13] = (15 & 0x0f) << 4;
  // bytes 14-17 samples (0), 18-33 MD5 (zero = unknown)
  const blockHeader = Buffer.from([0x80, 0x00, 0x00, 34]); // last block, STREAMINFO, length 34
  return Buffer.concat([Buffer.from("fLaC", "latin1"), blockHeader, info]);
}

function mp4Box(type: string, payload: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + payload.length);
  return Buffer.concat([size, Buffer.from(type, "latin1"), payload]);
}

/** An ISO-BMFF header (ftyp + empty mdat): enough for content sniffing and `video/mp4` checks. */
function makeMp4(): Buffer {
  const brands = Buffer.from("isom\u0000\u0000\u0002\u0000isomiso2mp41", "latin1");
  return Buffer.concat([mp4Box("ftyp", brands), mp4Box("mdat", Buffer.alloc(0))]);
}

/** One silent MPEG-1 Layer III frame (128 kbit/s, 44.1 kHz). */
function makeMp3(): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return frame;
}

const cache = new Map<MediaKind, Buffer>();

export function mediaBytes(kind: MediaKind): Buffer {
  let bytes = cache.get(kind);
  if (!bytes) {
    bytes = {
      png: makePng,
      jpeg: makeJpeg,
      webp: () => Buffer.from(WEBP_1X1, "base64"),
      wav: () => makeWav(),
      flac: makeFlac,
      mp4: makeMp4,
      mp3: makeMp3,
    }[kind]();
    cache.set(kind, bytes);
  }
  return bytes;
}

export function mediaDataUrl(kind: MediaKind): string {
  return `data:${MEDIA_CONTENT_TYPES[kind]};base64,${mediaBytes(kind).toString("base64")}`;
}

const EXTENSIONS: Record<string, MediaKind> = {
  png: "png",
  jpg: "jpeg",
  jpeg: "jpeg",
  webp: "webp",
  wav: "wav",
  flac: "flac",
  mp4: "mp4",
  mp3: "mp3",
};

/** The kind a file name implies (`out-0.webp` -> webp); PNG when the name says nothing. */
export function mediaKindForPath(path: string): MediaKind {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? "";
  return EXTENSIONS[extension] ?? "png";
}

/** The kind a content type names (`image/jpeg`, `audio/x-wav`), if any. */
export function mediaKindForContentType(contentType: string): MediaKind | undefined {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "audio/x-wav" || type === "audio/wave") return "wav";
  if (type === "audio/x-flac") return "flac";
  if (type === "image/jpg") return "jpeg";
  return (Object.keys(MEDIA_CONTENT_TYPES) as MediaKind[]).find((kind) => MEDIA_CONTENT_TYPES[kind] === type);
}

/** The kind a base64 payload starts as (`/9j/` JPEG, `iVBOR` PNG, `UklGR` RIFF WebP/WAV). */
export function mediaKindForBase64(base64: string): MediaKind | undefined {
  if (base64.startsWith("/9j/")) return "jpeg";
  if (base64.startsWith("iVBOR")) return "png";
  if (base64.startsWith("UklGR")) {
    // RIFF container: bytes 8-11 name the format (WEBP or WAVE).
    return Buffer.from(base64.slice(0, 16), "base64").subarray(8, 12).toString("latin1") === "WEBP"
      ? "webp"
      : "wav";
  }
  if (base64.startsWith("ZkxhQ")) return "flac";
  return undefined;
}
