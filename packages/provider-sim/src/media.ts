import { readFileSync } from "node:fs";

/**
 * Real media files at plausible sizes (a 512x512 picture, a 2 s 512x288 H.264 video, 1.5 s of sound),
 * made once with ffmpeg and kept in `__fixtures__/media`: the recording kept no binary bodies. Each carries
 * SIMULATOR_MARK in its metadata (PNG tEXt, JPEG comment, WebP XMP, MP4/WAV/FLAC/MP3 comment), so a page
 * can say plainly that a result came from the simulator.
 */
export const SIMULATOR_MARK = "modelhub provider-sim";

/** The response header on every answer of the simulator (value "1"): JSON answers carry no file to mark. */
export const SIMULATED_HEADER = "x-provider-sim";

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

const FILES: Record<MediaKind, string> = {
  png: "image.png",
  jpeg: "image.jpg",
  webp: "image.webp",
  wav: "sound.wav",
  flac: "sound.flac",
  mp4: "video.mp4",
  mp3: "sound.mp3",
};

const cache = new Map<MediaKind, Buffer>();

/** The simulator's file of that kind, read once. */
export function mediaBytes(kind: MediaKind): Buffer {
  let bytes = cache.get(kind);
  if (!bytes) {
    bytes = readFileSync(new URL(`./__fixtures__/media/${FILES[kind]}`, import.meta.url));
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
