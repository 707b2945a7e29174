import { InvalidInputError } from "../errors.js";
import type { ListingSort } from "./model-filters.js";

/** Position after the last model of a page, bound to the sort it was made for. */
export interface Cursor {
  sort: ListingSort;
  direction: 1 | -1;
  value: string | number;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.direction, cursor.value, cursor.id])).toString(
    "base64url",
  );
}

/** Decodes a cursor made by encodeCursor for the same sort and direction; anything else is a 400. */
export function decodeCursor(text: string, sort: ListingSort, direction: 1 | -1): Cursor {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw new InvalidInputError("Invalid cursor: use the Link header of the previous page.");
  }
  if (
    !Array.isArray(parts) ||
    parts.length !== 4 ||
    parts[0] !== sort ||
    parts[1] !== direction ||
    (typeof parts[2] !== "string" && typeof parts[2] !== "number") ||
    typeof parts[3] !== "string"
  ) {
    throw new InvalidInputError("Invalid cursor for this sort: use the Link header of the previous page.");
  }
  return { sort, direction, value: parts[2], id: parts[3] };
}
