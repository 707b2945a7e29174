import { useCallback } from "react";
import { useSearchParams } from "react-router";

/**
 * A paged list's search, filters and sort, kept in the URL: the parameters read from it, and `update`, which
 * writes a change back. A change that sets no cursor starts from the first page.
 */
export function useListSearchParams<Params extends { cursor?: string }>(
  read: (params: URLSearchParams) => Params,
  write: (list: Params) => URLSearchParams,
): [Params, (change: Partial<Params>, options?: { replace?: boolean }) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const update = useCallback(
    (change: Partial<Params>, options: { replace?: boolean } = {}) => {
      setSearchParams((current) => write({ ...read(current), cursor: undefined, ...change }), {
        replace: options.replace ?? false,
      });
    },
    [setSearchParams, read, write],
  );
  return [read(searchParams), update];
}
