import { InvalidInputError } from "../errors.js";

/**
 * One part of a repository id (owner or name), as the public hub allows it: letters, digits, `-`, `_`
 * and `.`; it starts and ends with a letter or digit, has no `--` or `..`, and is at most 96 characters.
 */
const ID_PART = /^(?!.*(?:--|\.\.))[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$/;

export function isValidIdPart(part: string): boolean {
  return ID_PART.test(part);
}

/** Validates `owner/name` and returns it; throws InvalidInputError naming the problem. */
export function parseModelId(id: unknown): string {
  if (typeof id !== "string" || id.length === 0) throw new InvalidInputError("A model id is required.");
  const parts = id.split("/");
  if (parts.length !== 2) {
    throw new InvalidInputError(
      `Invalid model id ${JSON.stringify(id.slice(0, 200))}: expected "owner/name".`,
    );
  }
  const [owner, name] = parts as [string, string];
  if (!isValidIdPart(owner) || !isValidIdPart(name)) {
    throw new InvalidInputError(
      `Invalid model id ${JSON.stringify(id.slice(0, 200))}: owner and name may use letters, digits, "-", "_" and "." (no "..", at most 96 characters each).`,
    );
  }
  return id;
}

export function modelIdFromParts(owner: string, name: string): string {
  return parseModelId(`${owner}/${name}`);
}
