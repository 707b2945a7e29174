import { queryOptions } from "@tanstack/react-query";
import { hubGet, modelPath } from "./hub-fetch.js";

/** One block of loading code, as the catalogue produces it. */
export interface LibrarySnippet {
  language: string;
  content: string;
  title?: string;
}

export interface LibrarySnippets {
  library?: string;
  snippets: LibrarySnippet[];
}

/** Accepts a bare list of snippets or an object that carries them with their library. */
export function normalizeLibrarySnippets(raw: unknown): LibrarySnippets {
  if (Array.isArray(raw)) return { snippets: raw as LibrarySnippet[] };
  const body = (raw ?? {}) as { library?: string; library_name?: string; snippets?: LibrarySnippet[] };
  return { library: body.library ?? body.library_name, snippets: body.snippets ?? [] };
}

/** `GET /api/models/{id}/library-snippets`: the catalogue's loading code for this model. */
export const librarySnippetsQuery = (modelId: string) =>
  queryOptions({
    queryKey: ["library-snippets", modelId],
    queryFn: async ({ signal }) =>
      normalizeLibrarySnippets(
        (await hubGet<unknown>(`/api/models/${modelPath(modelId)}/library-snippets`, signal)).data,
      ),
    staleTime: 5 * 60_000,
  });
