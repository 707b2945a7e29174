import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { HubApiError, hubGet } from "../../lib/api/hub-fetch.js";
import { type RepoRef, repoApiUrl, repoPageUrl } from "../../lib/repo-ref.js";

/** `GET /api/spaces/{id}/app-url/{revision}` (hub: repos/space-app-routes.ts). */
interface SpaceAppLink {
  url: string;
  expiresAt: string;
  appFile: string;
}

/**
 * Whether this hub runs the space's app (static spaces only; others are not run here, and the App tab says
 * why). Such a space's own URL opens on its app, any other's on its card.
 */
export function runsHere(sdk: string | undefined): boolean {
  return sdk === "static";
}

/**
 * The iframe's sandbox: scripts, forms and popups, never `allow-same-origin` (the spaces origin also sends
 * its own `sandbox` policy). The site runs as an opaque origin on another port: it reads no cookie of the
 * hub and calls no hub API with the visitor's credentials.
 */
const SANDBOX = "allow-scripts allow-forms allow-popups allow-modals allow-downloads";

/**
 * A static space's site, in a sandboxed frame from the spaces origin. The link is minted for this viewer
 * (a private space's only for those who may read it) and expires: it is asked for again on each visit.
 * A space this hub does not run (Gradio, Docker, Streamlit) says so and points to its files.
 */
export function SpaceApp({ repo, sdk }: { repo: RepoRef; sdk: string | undefined }) {
  const link = useQuery({
    queryKey: ["space-app", repo.id],
    queryFn: async ({ signal }) =>
      (await hubGet<SpaceAppLink>(repoApiUrl(repo, "app-url/main"), signal)).data,
    enabled: runsHere(sdk),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const files = (
    <Link to={repoPageUrl(repo, "tree/main")} className="text-accent underline">
      its files
    </Link>
  );
  if (!runsHere(sdk)) {
    return (
      <p className="rounded-lg border border-line p-4" data-testid="space-app-unsupported">
        This is a {sdk ?? "non-static"} space: this hub serves static spaces only and does not run{" "}
        {sdk ?? "other"} spaces (yet). See {files}.
      </p>
    );
  }
  if (link.error) {
    const message = link.error instanceof HubApiError ? link.error.message : "The app could not be loaded.";
    return (
      <p className="rounded-lg border border-line p-4" role="alert">
        {message} See {files}.
      </p>
    );
  }
  if (!link.data) return <p className="text-muted">Loading the app…</p>;
  return (
    <iframe
      title={`App of the space ${repo.id}`}
      src={link.data.url}
      sandbox={SANDBOX}
      referrerPolicy="no-referrer"
      className="h-[75vh] min-h-[24rem] w-full rounded-lg border border-line bg-white"
      data-testid="space-app"
    />
  );
}
