/** A single `Range: bytes=...` request against a resource of `size` bytes. */
export type RangeRequest =
  | { kind: "none" }
  | { kind: "range"; start: number; end: number }
  | { kind: "unsatisfiable" };

/**
 * Parses the forms clients send (`bytes=a-b`, `bytes=a-`, `bytes=-n`). Several ranges, or a header that is
 * not a byte range, are ignored (the whole resource is sent), as RFC 9110 allows.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: "none" };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return { kind: "none" };
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return { kind: "unsatisfiable" };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== "" && Number(match[2]) < start) return { kind: "none" };
  }
  if (start >= size || size === 0) return { kind: "unsatisfiable" };
  return { kind: "range", start, end };
}
