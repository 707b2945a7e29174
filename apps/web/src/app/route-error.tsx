import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { useReplaceFirstView } from "../lib/first-view.js";

export function RouteError() {
  const error = useRouteError();
  useReplaceFirstView();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : "Something went wrong.";
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-xl font-semibold">This page failed to load</h1>
      <p role="alert" className="mt-2 text-muted">
        {message}
      </p>
      <Link to="/models" className="mt-4 inline-block text-accent underline">
        Back to models
      </Link>
    </main>
  );
}
