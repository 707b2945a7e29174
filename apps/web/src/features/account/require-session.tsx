import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { type Session, useSession } from "./account-api.js";

/** Renders `children(session)` for a signed-in user; sends anyone else to sign in and back here. */
export function RequireSession({ children }: { children: (session: Session) => ReactNode }) {
  const { data: session, isPending, isError, error } = useSession();
  const location = useLocation();
  if (isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (isError)
    return (
      <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger">
        {error.message}
      </p>
    );
  if (!session) {
    const next = encodeURIComponent(`${location.pathname}${location.search}`);
    return <Navigate to={`/login?next=${next}`} replace />;
  }
  return children(session);
}
