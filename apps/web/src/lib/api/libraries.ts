import type { LibraryView } from "@modelhub/hub/api";
import { queryOptions } from "@tanstack/react-query";
import { hubGet } from "./hub-fetch.js";

/** `GET /api/libraries`: every model library the hub knows, most used first. */
export const librariesQuery = () =>
  queryOptions({
    queryKey: ["libraries"],
    queryFn: async ({ signal }) => (await hubGet<LibraryView[]>("/api/libraries", signal)).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
