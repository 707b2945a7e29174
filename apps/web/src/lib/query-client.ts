import { QueryClient } from "@tanstack/react-query";

/** One cache for the app; route loaders warm it while a page's code is still downloading. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});
