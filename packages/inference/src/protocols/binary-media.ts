import { base64ToBlob, blobToDataUrl, dataUrlToBlob, isBlob } from "../encoding.js";
import { InputError } from "../errors.js";
import type { ResponseContext } from "../providers/types.js";
import { followUpOf } from "./follow-up.js";

/**
 * Media answers arrive as bytes, a URL to download, or base64 inside JSON. `toMediaOutput` turns any of
 * them into what the caller asked for: a Blob (default), the URL, a data URL, or the provider's raw JSON.
 */
export type MediaSource =
  | { kind: "blob"; blob: Blob }
  | { kind: "url"; url: string }
  | { kind: "base64"; base64: string; type: string };

export async function toMediaOutput(
  source: MediaSource,
  ctx: ResponseContext,
  raw: unknown,
): Promise<Blob | string | Record<string, unknown>> {
  switch (ctx.outputType ?? "blob") {
    case "json":
      if (raw && typeof raw === "object" && !isBlob(raw)) return raw as Record<string, unknown>;
      throw new InputError(
        `${ctx.provider} returns raw image bytes for ${ctx.task}; outputType "json" is not available`,
      );
    case "url":
      if (source.kind === "url") return source.url;
      return mediaToDataUrl(source);
    case "dataUrl":
      if (source.kind === "url" && source.url.startsWith("data:")) return source.url;
      if (source.kind === "url") return blobToDataUrl(await followUpOf(ctx).getBlob(source.url));
      return mediaToDataUrl(source);
    default:
      return mediaToBlob(source, ctx);
  }
}

async function mediaToDataUrl(source: Exclude<MediaSource, { kind: "url" }>): Promise<string> {
  if (source.kind === "base64") return `data:${source.type};base64,${source.base64}`;
  return blobToDataUrl(source.blob);
}

export async function mediaToBlob(source: MediaSource, ctx: ResponseContext): Promise<Blob> {
  if (source.kind === "blob") return source.blob;
  if (source.kind === "base64") return base64ToBlob(source.base64, source.type);
  if (source.url.startsWith("data:")) return dataUrlToBlob(source.url);
  return followUpOf(ctx).getBlob(source.url);
}
