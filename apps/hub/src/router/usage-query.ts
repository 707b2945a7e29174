import { InvalidInputError } from "../errors.js";

/** Days a usage report covers when `since` is not given (the per-call rows' default retention). */
const DEFAULT_USAGE_DAYS = 30;

/** The `since` query parameter of the usage reports: an ISO date, default 30 days ago. */
export function usageSince(raw: string | undefined, now: Date = new Date()): string {
  if (raw === undefined) return new Date(now.getTime() - DEFAULT_USAGE_DAYS * 86_400_000).toISOString();
  const time = Date.parse(raw);
  if (Number.isNaN(time)) throw new InvalidInputError('"since" must be an ISO date.');
  return new Date(time).toISOString();
}
