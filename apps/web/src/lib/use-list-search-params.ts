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
      // From the address bar, not this render's search params: the router renders a navigation in a
      // transition, so on a slow phone (or a fast reader) a second change can come before the first one's
      // render, and building on the render's params would silently undo the first change.
      const current = new URLSearchParams(window.location.search);
      setSearchParams(write({ ...read(current), cursor: undefined, ...change }), {
        replace: options.replace ?? false,
      });
    },
    [setSearchParams, read, write],
  );
  return [read(searchParams), update];
}
