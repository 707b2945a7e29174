import { useState } from "react";
import { Link, useLocation } from "react-router";
import { createAccessToken, inferenceTokenRequest } from "./access-tokens.js";
import { useSession } from "./account-api.js";
import { errorText, secondaryButtonClass } from "./form-parts.js";

/**
 * Offers the signed-in user a token made for this model (inference calls and reading the model: the least
 * a snippet or the playground needs), handed to `onToken`; a reader who is not signed in gets a sign-in link
 * that comes back here. The token is never stored by the page.
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
  const [state, setState] = useState<{ busy?: boolean; made?: string; error?: string }>({});
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
  const create = async () => {
    setState({ busy: true });
    try {
      const issued = await createAccessToken(inferenceTokenRequest(modelId, where));
      onToken(issued.token);
      setState({ made: issued.name });
    } catch (failure) {
      setState({ error: errorText(failure) });
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {state.made ? null : (
        <button type="button" className={secondaryButtonClass} onClick={create} disabled={state.busy}>
          {state.busy ? "Creating a token…" : "Create a token for me"}
        </button>
      )}
      <span aria-live="polite" className="text-xs text-muted">
        {state.made ? (
          <>
            Made “{state.made}” (inference, read {modelId}); revoke it in{" "}
            <Link to="/settings/tokens" className="text-accent underline">
              Access tokens
            </Link>
            .
          </>
        ) : null}
        {state.error ? <span className="text-danger">{state.error}</span> : null}
      </span>
    </div>
  );
}
