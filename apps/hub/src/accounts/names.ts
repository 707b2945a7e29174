import { isValidIdPart } from "../catalogue/model-id.js";
import { InvalidInputError } from "../errors.js";

/** The public hub's longest user or organization name. */
export const MAX_NAME_LENGTH = 42;

/**
 * Names that are paths of the site or the API, so no account may take them (a repository `settings/x`
 * would be shadowed by the settings pages, `api/x` by the API).
 */
const RESERVED = new Set([
  "admin",
  "api",
  "assets",
  "auth",
  "collections",
  "datasets",
  "docs",
  "join",
  "login",
  "logout",
  "models",
  "new",
  "notifications",
  "oauth",
  "organizations",
  "papers",
  "pricing",
  "router",
  "search",
  "settings",
  "signin",
  "signup",
  "spaces",
  "static",
  "tasks",
  "widget",
  "v1",
]);

/**
 * A user or organization name as the public hub allows it: it must be a valid repository owner (letters,
 * digits, `-`, `_`, `.`, starting and ending with a letter or digit, no `--` or `..`), at most 42
 * characters, and not one of the site's own paths. Names are unique without regard to case.
 */
export function parseAccountName(raw: unknown, what = "name"): string {
  if (typeof raw !== "string" || raw.length === 0) throw new InvalidInputError(`A ${what} is required.`);
  if (raw.length > MAX_NAME_LENGTH || !isValidIdPart(raw)) {
    throw new InvalidInputError(
      `Invalid ${what} ${JSON.stringify(raw.slice(0, 60))}: use letters, digits, "-", "_" or "." (starting and ending with a letter or digit, no "--" or "..", at most ${MAX_NAME_LENGTH} characters).`,
    );
  }
  if (RESERVED.has(raw.toLowerCase())) throw new InvalidInputError(`The ${what} "${raw}" is reserved.`);
  return raw;
}

/** A full name: any text of at most 100 characters, without control characters; defaults to the name. */
export function parseFullname(raw: unknown, fallback: string): string {
  if (raw === undefined || raw === null || raw === "") return fallback;
  if (typeof raw !== "string" || raw.length > 100 || /[\p{Cc}]/u.test(raw)) {
    throw new InvalidInputError("A full name is text of at most 100 characters.");
  }
  return raw.trim() || fallback;
}

/** An email address, loosely checked (one @, no spaces); optional. */
export function parseEmail(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === "") return null;
  if (typeof raw !== "string" || raw.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(raw)) {
    throw new InvalidInputError("Invalid email address.");
  }
  return raw;
}
