import { useLayoutEffect } from "react";
import { HubApiError } from "../../lib/api/hub-fetch.js";
import { replaceFirstView } from "../../lib/first-view.js";
import { NotFoundPage } from "./not-found-page.js";

/** A repository page before its info arrives, or when it could not be read. */
export function RepoPageStatus({ id, error }: { id: string; error: Error | null }) {
  // Loading: the hub's first view of the page, if any, stays; an error replaces it.
  useLayoutEffect(() => {
    if (error) replaceFirstView();
  }, [error]);
  if (!error) {
    return (
      <p className="py-12 text-center text-muted" aria-live="polite">
        Loading {id}…
      </p>
    );
  }
  // The hub answered this address with 404 already; the page says the same.
  // (Anonymous callers get 401 for a missing or hidden repository, as on the public hub.)
  if (error instanceof HubApiError && [401, 404].includes(error.status)) return <NotFoundPage />;
  return (
    <section className="mx-auto max-w-xl py-12 text-center">
      <h1 className="text-xl font-semibold">{id}</h1>
      <p role="alert" className="mt-2 text-danger">
        {error.message}
      </p>
    </section>
  );
}
