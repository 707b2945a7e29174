import { posix } from "node:path";
import { sqlIdentifier } from "./viewer-engine.js";
import type { Feature } from "./viewer-records.js";

/**
 * Images and audio in the viewer's rows, as the public viewer answers them: an image cell is
 * `{"src": url, "height": h, "width": w}`, an audio cell `[{"src": url, "type": "audio/wav"}]`. The Parquet
 * cell holds the file's bytes and path (viewer-folders.ts); rows are read with only the path and the first
 * bytes of an image (enough for its size), never whole files.
 */

export type MediaKind = "image" | "audio";

/** Bytes of an image read for its size: the headers of PNG, GIF, BMP and WebP; JPEG's frame header, mostly. */
const IMAGE_HEAD_BYTES = 65_535;

const kindOf = (type: Feature): MediaKind | undefined => {
  const tag = (type as { _type?: unknown })._type;
  return tag === "Image" ? "image" : tag === "Audio" ? "audio" : undefined;
};

/** The split's top-level image and audio columns. */
export function mediaColumns(features: readonly { name: string; type: Feature }[]) {
  return features.flatMap((feature) => {
    const kind = kindOf(feature.type);
    return kind ? [{ name: feature.name, kind }] : [];
  });
}

/**
 * The select list of a split's rows for the viewer: every column, its image and audio cells cut down to
 * their path and an image's first bytes (base64: DuckDB's JSON has no bytes). When the files are not in the
 * repository (`embedded`: a Parquet file written by `datasets`), the whole bytes, shown as a data URL.
 */
export function viewerColumns(
  features: readonly { name: string; type: Feature }[],
  embedded: boolean,
): string {
  const media = mediaColumns(features);
  if (media.length === 0) return "*";
  const replaced = media.map(({ name, kind }) => {
    const cell = sqlIdentifier(name);
    const head = embedded
      ? `, head := to_base64(${cell}.bytes)`
      : kind === "image"
        ? `, head := left(to_base64(${cell}.bytes), ${(IMAGE_HEAD_BYTES / 3) * 4})`
        : "";
    return `CASE WHEN ${cell} IS NULL THEN NULL ELSE struct_pack(path := ${cell}.path${head}) END AS ${cell}`;
  });
  return `* REPLACE (${replaced.join(", ")})`;
}

/** An image's width and height from its first bytes (PNG, JPEG, GIF, BMP, WebP), or undefined. */
export function imageSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 10 && bytes.toString("latin1", 0, 3) === "GIF") {
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.length >= 26 && bytes.toString("latin1", 0, 2) === "BM") {
    return { width: Math.abs(bytes.readInt32LE(18)), height: Math.abs(bytes.readInt32LE(22)) };
  }
  if (
    bytes.length >= 30 &&
    bytes.toString("latin1", 0, 4) === "RIFF" &&
    bytes.toString("latin1", 8, 12) === "WEBP"
  ) {
    const chunk = bytes.toString("latin1", 12, 16);
    if (chunk === "VP8 ")
      return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    if (chunk === "VP8L") {
      const bits = bytes.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === "VP8X") return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
    return undefined;
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // JPEG: segments up to a start-of-frame marker (SOF0..SOF15 but DHT, JPG and DAC), which holds the size.
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) return undefined;
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at++;
        continue;
      }
      const length = bytes.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      }
      at += 2 + length;
    }
  }
  return undefined;
}

/** The MIME type of an audio file by its extension, as a browser's audio element wants it. */
export function audioType(path: string): string {
  const types: Record<string, string> = {
    ".wav": "audio/wav",
    ".mp3": "audio/mpeg",
    ".flac": "audio/flac",
    ".ogg": "audio/ogg",
    ".opus": "audio/ogg",
    ".webm": "audio/webm",
    ".aiff": "audio/aiff",
    ".wma": "audio/x-ms-wma",
    ".3gp": "audio/3gpp",
  };
  return types[posix.extname(path).toLowerCase()] ?? "application/octet-stream";
}

/** The MIME type of an image by its first bytes. */
function imageType(bytes: Buffer): string {
  if (bytes.readUInt32BE(0) === 0x89504e47) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  const start = bytes.toString("latin1", 0, 4);
  if (start.startsWith("GIF")) return "image/gif";
  if (start.startsWith("BM")) return "image/bmp";
  if (start === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "image/webp";
  return "application/octet-stream";
}

/**
 * Turns a row read with viewerColumns into the public viewer's cells: `srcOf(path)` is the URL of the
 * repository file a cell came from; without it (embedded files) the cell's bytes make a data URL.
 */
export function presentMedia(
  row: Record<string, unknown>,
  media: readonly { name: string; kind: MediaKind }[],
  srcOf: ((path: string) => string) | undefined,
): Record<string, unknown> {
  if (media.length === 0) return row;
  const shown = { ...row };
  for (const { name, kind } of media) {
    const cell = row[name] as { path?: string | null; head?: string | null } | null | undefined;
    const bytes = cell?.head ? Buffer.from(cell.head, "base64") : undefined;
    if (!cell || (!srcOf && !bytes)) {
      shown[name] = null;
      continue;
    }
    const path = cell.path ?? "";
    const type = kind === "audio" ? audioType(path) : bytes && bytes.length >= 4 ? imageType(bytes) : "";
    const src = srcOf ? srcOf(path) : `data:${type};base64,${cell.head}`;
    if (kind === "audio") {
      shown[name] = [{ src, type }];
    } else {
      const size = bytes ? imageSize(bytes) : undefined;
      shown[name] = { src, height: size?.height ?? null, width: size?.width ?? null };
    }
  }
  return shown;
}
