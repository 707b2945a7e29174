import type { Context } from "hono";
import { z } from "zod";
import { RepoExistsError as HubRepoExistsError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import { parseInput } from "../http/validate.js";
import { type RepoReadDeps, repoUrl } from "./read-routes.js";
import { assignedRepo, type RepoApiPath } from "./repo-assignment.js";
import { parseRepoId, RepoExistsError } from "./repo-service.js";
import { actorName } from "./repo-target.js";

/** The body huggingface_hub's duplicate_repo sends (space-only settings are ignored: spaces run nowhere here). */
const DuplicateBody = z.object({
  repository: z.string({ error: 'is required: "namespace/name" of the copy.' }),
  visibility: z
    .enum(["public", "private", "protected"], { error: 'must be "public" or "private".' })
    .nullish(),
  private: z.boolean({ error: "must be a boolean." }).nullish(),
});

/**
 * POST /api/{type}s/{id}/duplicate `{repository, visibility}`: a new repository of the same type holding the
 * source's main files (one commit, "Duplicate from {id}"), as the public hub's duplicate does; `{url}` back,
 * 409 when the name is taken. The caller must be able to download the source's files (access was checked as
 * "read-files": a gated source needs a grant, a private one read access), which is what lets the copy
 * reference its contents, and may create repositories in the target namespace. The copy is private when the
 * source is, unless told otherwise; it is not gated.
 */
export async function repoDuplicate(deps: RepoReadDeps, c: Context, _target: RepoApiPath): Promise<Response> {
  const { repo: source, actor } = assignedRepo(c);
  const body = parseInput(DuplicateBody, await readJsonBody(c, 64 * 1024));
  const { id, owner } = parseRepoId(body.repository);
  await deps.access.authorizeCreate(actor, source.type, owner);
  const isPrivate = body.visibility != null ? body.visibility !== "public" : (body.private ?? source.private);
  const head = await deps.repos.resolveOrThrow(source, "main");
  const files = await deps.repos.files(source, head.commitOid);
  const author = actorName(actor);
  const copy = await deps.repos
    .create({ type: source.type, id, private: isPrivate, author })
    .catch((error) => {
      if (error instanceof RepoExistsError) {
        throw new HubRepoExistsError(
          error.message,
          repoUrl(deps.publicUrl, { type: source.type, id: error.id }),
        );
      }
      throw error;
    });
  await deps.repos.commit(copy, {
    ref: "refs/heads/main",
    title: `Duplicate from ${source.id}`,
    description: "",
    author,
    operations: files.map(({ path, ...file }) => ({ kind: "put" as const, path, file })),
  });
  return c.json({ url: repoUrl(deps.publicUrl, copy) });
}
