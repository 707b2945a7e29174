import { type Context, Hono } from "hono";
import { z } from "zod";
import { repoNotFound } from "../auth/authorize.js";
import { parseFrontMatter } from "../derive/front-matter.js";
import { RepoExistsError as HubRepoExistsError, InvalidInputError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { parseInput } from "../http/validate.js";
import { type RepoReadDeps, repoUrl } from "./read-routes.js";
import { parseRepoPath } from "./repo-path.js";
import { REPO_TYPES, type RepoType } from "./repo-records.js";
import { parseRepoId, RepoExistsError } from "./repo-service.js";
import { actorName, findRepo } from "./repo-target.js";

const JSON_LIMIT = 1024 * 1024;
/** Creation takes a few small files inline (base64); anything larger is uploaded after, as on the public hub. */
const CREATE_JSON_LIMIT = 4 * JSON_LIMIT;
const MAX_CREATE_FILES = 100;

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
  /** A licence id (`mit`, `apache-2.0`), written to the README's front matter as the public hub does. */
  license: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9.+_-]{0,99}$/, {
      error: 'must be a licence id such as "mit" or "apache-2.0".',
    })
    .nullish(),
  /** Files of the first commit, as @huggingface/hub's createRepo sends them. */
  files: z
    .array(
      z.object({
        path: z.string(),
        content: z.string({ error: "must be a string." }),
        encoding: z.enum(["base64", "utf-8"], { error: 'must be "base64" or "utf-8".' }).nullish(),
      }),
    )
    .max(MAX_CREATE_FILES, { error: `at most ${MAX_CREATE_FILES} files at creation: upload the rest.` })
    .nullish(),
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

async function objectBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  limit = JSON_LIMIT,
): Promise<z.output<S>> {
  return parseInput(schema, await readJsonBody(c, limit));
}

/**
 * The first commit's files besides .gitattributes: those sent, a space's README (title and SDK), and a README
 * naming the licence when one is given (the public hub writes one; a README sent along is kept as it is).
 */
function initialFiles(
  type: RepoType,
  id: string,
  body: z.output<typeof CreateBody>,
): { path: string; content: string | Uint8Array }[] {
  const files = (body.files ?? []).map((file) => ({
    path: parseRepoPath(file.path),
    content: file.encoding === "base64" ? Buffer.from(file.content, "base64") : file.content,
  }));
  const paths = new Set(files.map((file) => file.path));
  for (const path of paths) {
    const clash = path
      .split("/")
      .findIndex((_, at, parts) => at > 0 && paths.has(parts.slice(0, at).join("/")));
    if (clash > 0)
      throw new InvalidInputError(`${path} is below ${path.split("/").slice(0, clash).join("/")}, a file.`);
  }
  if (paths.has("README.md")) return files;
  const frontMatter = [
    ...(type === "space"
      ? [`title: ${id.split("/")[1]}`, `sdk: ${body.sdk ?? "static"}`, "pinned: false"]
      : []),
    ...(body.license ? [`license: ${body.license}`] : []),
  ];
  if (frontMatter.length === 0) return files;
  return [...files, { path: "README.md", content: `---\n${frontMatter.join("\n")}\n---\n` }];
}

/** POST /api/repos/create, DELETE /api/repos/delete, POST /api/repos/move, in the public hub's shapes. */
export function repoAdminRoutes(deps: RepoReadDeps) {
  const app = new Hono<HubEnv>();

  app.post("/create", async (c) => {
    const body = await objectBody(c, CreateBody, CREATE_JSON_LIMIT);
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
        files: initialFiles(type, id, body),
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
