import { useOutletContext, useParams } from "react-router";
import type { ModelInfo } from "./api/models.js";
import type { RepoInfo } from "./api/repos.js";
import type { RepoRef } from "./repo-ref.js";

/**
 * What a repository layout (model, dataset or space) hands its section pages through the outlet context:
 * the repository, its info, and for a model the model record the model-only sections need.
 */
export interface RepoRouteContext {
  repo: RepoRef;
  info: RepoInfo;
  model?: ModelInfo;
}

/** The model of a model page's section (only the model layout renders those sections). */
export function useRouteModel(): ModelInfo {
  const { model, repo } = useOutletContext<RepoRouteContext>();
  if (!model) throw new Error(`${repo.id} is a ${repo.type}: this section is for models only.`);
  return model;
}

/** The repository a section page is about: a model, a dataset or a space. */
export function useRouteRepo(): RepoRef {
  return useOutletContext<RepoRouteContext>().repo;
}

/** The repository's info, as its layout loaded it. */
export function useRouteRepoInfo(): RepoInfo {
  return useOutletContext<RepoRouteContext>().info;
}

/** The `:rev` and the splat path of a files URL (`tree/:rev/*`), decoded. */
export function useRevisionPath(): { revision: string; path: string } {
  const params = useParams();
  return { revision: params.rev ?? "main", path: (params["*"] ?? "").replace(/\/+$/, "") };
}
