import { type Context, Hono } from "hono";
import { z } from "zod";
import { repoNotFound } from "../auth/authorize.js";
import { parseFrontMatter } from "../derive/front-matter.js";
import { RepoExistsError as HubRepoExistsError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { parseInput } from "../http/validate.js";
import { type RepoReadDeps, repoUrl } from "./read-routes.js";
import { REPO_TYPES, type RepoType } from "./repo-records.js";
import { parseRepoId, RepoExistsError } from "./repo-service.js";
import { actorName, findRepo } from "./repo-target.js";

const JSON_LIMIT = 1024 * 1024;

/** `type`, a model when absent (huggingface_hub sends `null` for models). */
const RepoTypeField = z
  .enum(REPO_TYPES, { error: `must be one of ${REPO_TYPES.join(", ")}.` })
  .nullish()
  .transform((type): RepoType => type ?? "model");

/** How clients name a repository: `{name, organization}`, or a full `owner/name` in `name` (fullId). */
const RepoName = {
  type: RepoTypeField,
  name: z.string().nullish(),
  organization: z.string().nullish(),
};

const CreateBody = z.object({
  ...RepoName,
  visibility: z
    .enum(["public", "private", "protected"], { error: 'must be "public" or "private".' })
    .optional(),
  private: z.boolean().nullish(),
  /** A space's SDK, written to its README's front matter. */
  sdk: z.string().nullish(),
});
const DeleteBody = z.object(RepoName);
const MoveBody = z.object({ type: RepoTypeField, fromRepo: z.string(), toRepo: z.string() });
const ValidateYamlBody = z.object({ content: z.string() });

/**
 * `{name, organization}` as clients send it, or a full `owner/name` in `name`. A name with neither an
 * organization nor an owner is in the caller's own namespace (`create_repo("model")` makes `alice/model`, as
 * on the public hub), when the caller is a user.
 */
function fullId(body: { name?: string | null; organization?: string | null }, callerName?: string): string {
  const name = body.name ?? "";
  const organization = body.organization ?? undefined;
  if (name.includes("/")) return name;
  if (organization) return `${organization}/${name}`;
  return callerName && name ? `${callerName}/${name}` : name;
}

async function objectBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseInput(schema, await readJsonBody(c, JSON_LIMIT));
}

/** POST /api/repos/create, DELETE /api/repos/delete, POST /api/repos/move, in the public hub's shapes. */
export function repoAdminRoutes(deps: RepoReadDeps) {
  const app = new Hono<HubEnv>();

  app.post("/create", async (c) => {
    const body = await objectBody(c, CreateBody);
    const type = body.type;
    const actor = deps.access.actor(c);
    const { id, owner } = parseRepoId(fullId(body, actor.kind === "user" ? actor.user.name : undefined));
    await deps.access.authorizeCreate(actor, type, owner);
    const isPrivate = body.visibility !== undefined ? body.visibility !== "public" : body.private === true;
    const repo = await deps.repos
      .create({
        type,
        id,
        private: isPrivate,
        author: actorName(actor),
        files:
          type === "space"
            ? [
                {
                  path: "README.md",
                  content: `---\ntitle: ${id.split("/")[1]}\nsdk: ${body.sdk ?? "static"}\npinned: false\n---\n`,
                },
              ]
            : [],
      })
      .catch((error: unknown) => {
        if (error instanceof RepoExistsError) {
          throw new HubRepoExistsError(error.message, repoUrl(deps.publicUrl, { type, id: error.id }));
        }
        throw error;
      });
    return c.json({ url: repoUrl(deps.publicUrl, repo), name: repo.id, id: repo.id });
  });

  app.delete("/delete", async (c) => {
    const body = await objectBody(c, DeleteBody);
    const type = body.type;
    const actor = deps.access.actor(c);
    const id = fullId(body, actor.kind === "user" ? actor.user.name : undefined);
    const { repo } = await findRepo(deps, c, type, id, "admin");
    if (repo.id.toLowerCase() !== id.toLowerCase()) throw repoNotFound(deps.access.actor(c), id);
    await deps.repos.delete(repo);
    return c.json({ success: true });
  });

  app.post("/move", async (c) => {
    const body = await objectBody(c, MoveBody);
    const type = body.type;
    const { repo } = await findRepo(deps, c, type, body.fromRepo, "admin");
    const target = parseRepoId(body.toRepo);
    await deps.access.authorizeCreate(deps.access.actor(c), type, target.owner);
    const moved = await deps.repos.move(repo, target.id);
    return c.json({ url: repoUrl(deps.publicUrl, moved) });
  });

  return app;
}

/** POST /api/validate-yaml `{content, repoType}`: checks a card's metadata before a commit touches README.md. */
export function validateYamlRoute() {
  const app = new Hono<HubEnv>();
  app.post("/", async (c) => {
    const body = await objectBody(c, ValidateYamlBody);
    const { data, errors } = parseFrontMatter(body.content);
    const warnings = data ? [] : [{ message: "empty or missing yaml metadata in repo card" }];
    if (errors.length) {
      return c.json(
        { error: errors.join(" "), errors: errors.map((message) => ({ message })), warnings },
        400,
      );
    }
    return c.json({ errors: [], warnings });
  });
  return app;
}
