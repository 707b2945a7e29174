import { queryOptions } from "@tanstack/react-query";
import { hubGet } from "./hub-fetch.js";

/** A model library as `GET /api/libraries` lists it. */
export interface LibrarySummary {
  id: string;
  prettyLabel: string;
  docsUrl?: string;
  repoUrl?: string;
  /** Whether the hub offers it as a filter. */
  filter: boolean;
}

type RawLibrary = Partial<LibrarySummary> & { key?: string; label?: string };

/** Accepts a list of entries or an object keyed by library id. */
export function normalizeLibraries(raw: unknown): LibrarySummary[] {
  const entries: Array<[string | undefined, RawLibrary]> = Array.isArray(raw)
    ? (raw as RawLibrary[]).map((entry) => [undefined, entry])
    : Object.entries((raw ?? {}) as Record<string, RawLibrary>);
  return entries
    .map(([key, entry]) => {
      const id = entry.id ?? entry.key ?? key ?? "";
      return {
        id,
        prettyLabel: entry.prettyLabel ?? entry.label ?? id,
        docsUrl: entry.docsUrl,
        repoUrl: entry.repoUrl,
        filter: entry.filter !== false,
      };
    })
    .filter((library) => library.id !== "");
}

export const librariesQuery = () =>
  queryOptions({
    queryKey: ["libraries"],
    queryFn: async ({ signal }) => normalizeLibraries((await hubGet<unknown>("/api/libraries", signal)).data),
    staleTime: Number.POSITIVE_INFINITY,
  });
