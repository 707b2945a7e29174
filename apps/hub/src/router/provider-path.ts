import { InvalidInputError } from "../errors.js";

/**
 * The provider path after `/router/{provider}`, still URL-encoded, refused when it could climb out of the
 * provider's base path or smuggle separators: `.`/`..` segments, encoded slashes or backslashes, empty
 * segments, control characters.
 */
export function providerPathFrom(rawPathname: string, provider: string): string {
  const path = rawPathname.slice(`/router/${provider}`.length);
  if (!path.startsWith("/") || path.length < 2) {
    throw new InvalidInputError(
      `Missing the provider path: /router/${provider}/<path of the provider's API>.`,
    );
  }
  if (/%(2f|5c|00)/i.test(path) || /[\\\u0000-\u001f]/.test(path) || path.includes("//")) {
    throw new InvalidInputError(
      "Invalid provider path: encoded slashes, backslashes and empty segments are refused.",
    );
  }
  for (const segment of path.slice(1).split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new InvalidInputError("Invalid provider path: bad percent-encoding.");
    }
    if (decoded === "." || decoded === "..") {
      throw new InvalidInputError('Invalid provider path: "." and ".." segments are refused.');
    }
  }
  return path;
}
