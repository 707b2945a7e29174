import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { formatDate } from "../../lib/format.js";
import {
  createAccessToken,
  type IssuedToken,
  inferenceTokenRequest,
  revokeAccessToken,
  tokensQuery,
} from "./access-tokens.js";
import type { AccessToken } from "./account-api.js";
import { useSession } from "./account-api.js";
import { errorText, secondaryButtonClass } from "./form-parts.js";

/** How long a token made "for me" lives: long enough for a project, short enough that a forgotten one dies. */
export const TOKEN_FOR_ME_DAYS = 30;

/**
 * Tokens made in this page, by name, for as long as the page lives: moving between tabs and models reuses
 * them instead of making another. Never stored: a reload forgets the secret, and the reader then sees the
 * token they already have (by its hint) instead of a new one being made.
 */
const madeInThisPage = new Map<string, IssuedToken>();

const usable = (token: AccessToken, now: number) =>
  !token.revokedAt && (!token.expiresAt || Date.parse(token.expiresAt) > now);

/**
 * Offers the signed-in user one token made for this model (inference calls and reading the model: the least
 * a snippet needs), expiring in 30 days, handed to `onToken`. Made once: a token of that name that is still
 * valid is shown (its hint and expiry) rather than a second one made; replacing it revokes it first. A reader
 * who is not signed in gets a sign-in link that comes back here.
 */
export function CreateTokenForMe({
  modelId,
  where,
  onToken,
}: {
  modelId: string;
  /** Names the token after where it was made ("playground", "snippet"). */
  where: string;
  onToken: (token: string) => void;
}) {
  const { data: session, isPending } = useSession();
  const location = useLocation();
  const queryClient = useQueryClient();
  const request = inferenceTokenRequest(modelId, where);
  const tokens = useQuery({ ...tokensQuery, enabled: !!session });
  const [state, setState] = useState<{ busy?: boolean; made?: IssuedToken; error?: string }>(() => ({
    made: madeInThisPage.get(request.name),
  }));
  // A token made earlier in this page goes back to a panel that was unmounted meanwhile.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount.
  useEffect(() => {
    if (state.made) onToken(state.made.token);
  }, []);
  if (isPending) return null;
  if (!session) {
    const next = encodeURIComponent(`${location.pathname}${location.search}`);
    return (
      <p className="text-xs text-muted">
        No token?{" "}
        <Link to={`/login?next=${next}`} className="text-accent underline">
          Sign in
        </Link>{" "}
        and this page makes one for you.
      </p>
    );
  }
  const existing = state.made
    ? undefined
    : tokens.data?.find((token) => token.name === request.name && usable(token, Date.now()));

  const create = async () => {
    setState({ busy: true });
    try {
      if (existing) await revokeAccessToken(existing.id);
      const expiresAt = new Date(Date.now() + TOKEN_FOR_ME_DAYS * 86_400_000).toISOString();
      const issued = await createAccessToken({ ...request, expiresAt });
      madeInThisPage.set(request.name, issued);
      onToken(issued.token);
      setState({ made: issued });
      void queryClient.invalidateQueries({ queryKey: tokensQuery.queryKey });
    } catch (failure) {
      setState({ error: errorText(failure) });
    }
  };
  const expiry = (token: AccessToken) =>
    token.expiresAt ? `expires on ${formatDate(token.expiresAt)}` : "never expires";
  const settingsLink = (
    <Link to="/settings/tokens" className="text-accent underline">
      Access tokens
    </Link>
  );
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="token-for-me">
      {state.made ? null : (
        <button type="button" className={secondaryButtonClass} onClick={create} disabled={state.busy}>
          {state.busy
            ? "Creating a token…"
            : existing
              ? "Replace it with a new token"
              : "Create a token for me"}
        </button>
      )}
      <span aria-live="polite" className="text-xs text-muted">
        {state.made ? (
          <>
            Made “{state.made.name}” (inference, read {modelId}); it {expiry(state.made)}. Revoke it in{" "}
            {settingsLink}.
          </>
        ) : existing ? (
          <>
            You already have “{existing.name}” ({existing.hint}), which {expiry(existing)}. Its secret was
            shown once, when it was made; replacing it revokes it. Manage it in {settingsLink}.
          </>
        ) : null}
        {state.error ? <span className="text-danger">{state.error}</span> : null}
      </span>
    </div>
  );
}
