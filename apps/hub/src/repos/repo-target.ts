import type { Context } from "hono";
import { repoNotFound } from "../auth/authorize.js";
import type { RepoMirror } from "./mirror-port.js";
import type { RepoAccess, RepoAction, RepoActor } from "./repo-access.js";
import type { RepoRecord, RepoType } from "./repo-records.js";
import type { RepoService } from "./repo-service.js";

/** URL segment of each repository type in the public hub's layout: `/api/{segment}/...`, `/{prefix}{id}`. */
export const TYPE_SEGMENTS: Record<string, RepoType> = {
  models: "model",
  datasets: "dataset",
  spaces: "space",
};
export const URL_PREFIX: Record<RepoType, string> = { model: "", dataset: "datasets/", space: "spaces/" };

export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface RepoTargetDeps {
  repos: RepoService;
  access: RepoAccess;
  /** The mirror of an upstream hub (repos/mirror-port.ts), wired when UPSTREAM_URL is set. */
  mirror?: RepoMirror;
}

/**
 * The repository `type` `id` names: a local one (or the one a former id redirects to), else, with a mirror,
 * upstream's, materialized locally on first use. A local repository always wins over upstream's.
 */
export async function findOrMirror(
  deps: RepoTargetDeps,
  type: RepoType,
  id: string,
  actor: RepoActor,
): Promise<{ repo: RepoRecord; moved: boolean } | undefined> {
  const found = await deps.repos.find(type, id);
  if (found) return withoutDemoCopy(deps, found);
  if (!deps.mirror) return undefined;
  const mirrored = await deps.mirror.lookup(type, id, actor);
  // Upstream answered under another name (a renamed or legacy id): the asked id now leads there, as a move's.
  return mirrored ? { repo: mirrored, moved: mirrored.id.toLowerCase() !== id.toLowerCase() } : undefined;
}

/**
 * A local repository found for a read, unless it is a demo copy of a catalogue model that yields to the real
 * model upstream has: the mirror decides, and replaces it (docs/decisions/mirror.md).
 */
export async function withoutDemoCopy(
  deps: RepoTargetDeps,
  found: { repo: RepoRecord; moved: boolean },
): Promise<{ repo: RepoRecord; moved: boolean }> {
  if (found.moved || found.repo.type !== "model" || found.repo.mirrorOf || !deps.mirror?.replaceDemoCopy) {
    return found;
  }
  const real = await deps.mirror.replaceDemoCopy(found.repo);
  return real ? { repo: real, moved: false } : found;
}

/**
 * The repository a request names, after the access check. A missing repository and a private one the caller
 * may not see answer alike (RepoNotFound). A moved repository is found under its former id.
 */
export async function findRepo(
  deps: RepoTargetDeps,
  c: Context,
  type: RepoType,
  id: string,
  action: RepoAction,
): Promise<{ repo: RepoRecord; actor: RepoActor; moved: boolean }> {
  const actor = deps.access.actor(c);
  // Upstream is asked only to read: a write to an id that is not here is a RepoNotFound, as without a mirror.
  const found =
    action === "write" || action === "admin"
      ? await deps.repos.find(type, id)
      : await findOrMirror(deps, type, id, actor);
  if (!found) throw repoNotFound(actor, id);
  await deps.access.authorize(actor, action, found.repo);
  return { repo: found.repo, actor, moved: found.moved };
}

export function actorName(actor: RepoActor): string {
  return actor.kind === "user" ? actor.user.name : actor.kind;
}
