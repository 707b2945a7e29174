/**
 * URL building for links and downloads. Model ids and file paths are untrusted: every path segment is
 * percent-encoded on its own (so "/" stays a separator and nothing else can), query values go through
 * URLSearchParams.
 */

export const DEFAULT_HUB_URL = "https://huggingface.co";

/** Percent-encodes each "/"-separated segment of a model id or repository path. */
export function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** `{hubUrl}/{id}/resolve/main/{path}`: the URL that downloads one file of a model repository. */
export function resolveUrl(hubUrl: string, modelId: string, filePath: string): string {
  return `${hubUrl.replace(/\/+$/, "")}/${encodePath(modelId)}/resolve/main/${encodePath(filePath)}`;
}

/** A URL with query parameters, each value encoded. */
export function withQuery(base: string, params: Record<string, string | undefined>): URL {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  return url;
}
