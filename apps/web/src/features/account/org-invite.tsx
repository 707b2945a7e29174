import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { queryClient } from "../../lib/query-client.js";
import { useSession } from "./account-api.js";
import { buttonClass, errorText, FormMessage } from "./form-parts.js";
import { acceptInvite, inviteQuery, whoamiQuery } from "./organizations.js";

/** An organization's invite link: what it offers, and joining (signed in) or signing in first. */
export function OrgInvite({ code }: { code: string }) {
  // Once used, the invite is gone on the hub: never ask for it again.
  const [accepted, setAccepted] = useState(false);
  const offer = useQuery({ ...inviteQuery(code), retry: false, enabled: !accepted });
  const { data: session, isPending } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  if (offer.isPending || isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (offer.isError) return <FormMessage error={errorText(offer.error)} />;
  const { org, fullname, role } = offer.data;
  const join = async () => {
    setError(null);
    try {
      await acceptInvite(code);
      setAccepted(true);
      await queryClient.invalidateQueries({ queryKey: whoamiQuery.queryKey });
      navigate(`/organizations/${encodeURIComponent(org)}`, { replace: true });
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const here = encodeURIComponent(location.pathname);
  return (
    <div className="flex flex-col gap-4">
      <p>
        You are invited to join <strong>{fullname}</strong> ({org}) as <strong>{role}</strong>.
      </p>
      <FormMessage error={error} />
      {session ? (
        <button type="button" className={`${buttonClass} self-start`} onClick={join}>
          Join {org} as {session.name}
        </button>
      ) : (
        <p className="text-sm">
          <Link to={`/login?next=${here}`} className="text-accent underline">
            Sign in
          </Link>{" "}
          or{" "}
          <Link to={`/join?next=${here}`} className="text-accent underline">
            create an account
          </Link>{" "}
          to accept it.
        </p>
      )}
    </div>
  );
}
