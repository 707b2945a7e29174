import type { LibrarySnippetsView } from "@modelhub/hub/api";
import { queryOptions } from "@tanstack/react-query";
import { hubGet, modelPath } from "./hub-fetch.js";

/** `GET /api/models/{id}/library-snippets`: the catalogue's loading code for this model. */
export const librarySnippetsQuery = (modelId: string) =>
  queryOptions({
    queryKey: ["library-snippets", modelId],
    queryFn: async ({ signal }) =>
      (await hubGet<LibrarySnippetsView>(`/api/models/${modelPath(modelId)}/library-snippets`, signal)).data,
    staleTime: 5 * 60_000,
  });
