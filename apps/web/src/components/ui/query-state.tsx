import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";

/** A failure's message as an alert; nothing when there is none. */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-danger">
      {message}
    </p>
  );
}

/** A query's loading line, or its error as an alert, or what its data renders once it is there. */
export function QueryState<Data>({
  query,
  loading = "Loading…",
  children,
}: {
  query: UseQueryResult<Data>;
  loading?: ReactNode;
  children: (data: Data) => ReactNode;
}) {
  if (query.isPending) return <p className="text-muted">{loading}</p>;
  if (query.isError) return <ErrorAlert message={query.error.message} />;
  return children(query.data);
}
