import { type Context, Hono } from "hono";
import { signedInUser } from "../accounts/signed-in.js";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import type { NamespaceRepositories } from "./namespace-repositories.js";

export interface NamespaceRepositoriesRoutesDeps {
  repositories: NamespaceRepositories;
  authorizer: Authorizer;
}

/**
 * GET /api/settings/repositories (the caller's own namespace) and GET
 * /api/organizations/{org}/settings/repositories: huggingface_hub's list_user_repos (`hf repos ls`), in its
 * RepoStorageInfo shape. Private repositories are listed, so the caller must be one who may create in the
 * namespace (its owner, an organization's writers and admins, with a write credential); anyone else is
 * refused as for a write there.
 */
export function namespaceRepositoriesRoutes(deps: NamespaceRepositoriesRoutesDeps) {
  const app = new Hono<HubEnv>();
  const answer = async (c: Context<HubEnv>, namespace: string) => {
    const actor = c.get("actor");
    await deps.authorizer.authorize(actor, "write", { kind: "namespace", name: namespace });
    const repositories = await deps.repositories.list(namespace);
    const total = repositories.reduce((sum, repo) => sum + repo.storage, 0);
    c.header("Cache-Control", "no-store");
    return c.json(
      repositories.map((repo) => ({
        id: repo.id,
        type: repo.type,
        updatedAt: repo.lastModified,
        visibility: repo.private ? "private" : "public",
        storage: repo.storage,
        storagePercent: total > 0 ? (repo.storage / total) * 100 : 0,
      })),
    );
  };
  app.get("/settings/repositories", (c) => answer(c, signedInUser(c).user.name));
  app.get("/organizations/:org/settings/repositories", (c) => answer(c, c.req.param("org")));
  return app;
}
