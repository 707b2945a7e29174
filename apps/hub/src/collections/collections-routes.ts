import { type Context, Hono } from "hono";
import { z } from "zod";
import { ANONYMOUS } from "../auth/actor.js";
import { InvalidInputError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import { parseInput } from "../http/validate.js";
import { type CollectionsService, THEMES } from "./collections-service.js";

export interface CollectionsRoutesDeps {
  collections: CollectionsService;
  maxBodyBytes: number;
}

const Title = z.string({ error: "is required." }).trim().min(1, { error: "is required." }).max(60, {
  error: "is at most 60 characters.",
});
const Description = z.string().max(150, { error: "is at most 150 characters." });

const CreateBody = z.object({
  title: Title,
  namespace: z.string({ error: "is required (a user or organization name)." }).min(1),
  description: Description.nullish(),
  private: z.boolean({ error: "must be a boolean." }).nullish(),
});

const UpdateBody = z.object({
  title: Title.optional(),
  description: Description.optional(),
  private: z.boolean({ error: "must be a boolean." }).optional(),
  theme: z.enum(THEMES, { error: `must be one of ${THEMES.join(", ")}.` }).optional(),
  position: z.number().int().min(0).optional(),
});

const AddItemBody = z.object({
  item: z.object({
    type: z.string({ error: "is required." }),
    id: z.string({ error: "is required." }).min(1),
  }),
  note: z.string().max(500, { error: "is at most 500 characters." }).nullish(),
});

const UpdateItemBody = z.object({
  position: z.number().int().min(0).optional(),
  note: z.string().max(500, { error: "is at most 500 characters." }).optional(),
});

/** `models/owner/name` (huggingface_hub's `item` filter) as a type and an id. */
function itemFilter(value: string | undefined): { type: string; id: string } | undefined {
  if (!value) return undefined;
  const match = /^(models|datasets|spaces|collections)\/(.+)$/.exec(value);
  if (!match)
    throw new InvalidInputError(
      'item must be "models/{id}", "datasets/{id}", "spaces/{id}" or "collections/{slug}".',
    );
  return { type: match[1]!.slice(0, -1), id: match[2]! };
}

/**
 * The public hub's collections API: `GET|POST /api/collections`, `GET|PATCH|DELETE /api/collections/{slug}`,
 * `POST /api/collections/{slug}/items`, `PATCH|DELETE /api/collections/{slug}/items/{itemId}`. A slug is
 * `owner/title-words-{id}`; only its id and owner name the collection.
 */
export function collectionsRoutes(deps: CollectionsRoutesDeps) {
  const { collections } = deps;
  const app = new Hono<HubEnv>();
  const actor = (c: Context<HubEnv>) => c.get("actor") ?? ANONYMOUS;
  const body = async <S extends z.ZodType>(c: Context<HubEnv>, schema: S): Promise<z.output<S>> =>
    parseInput(schema, await readJsonBody(c, deps.maxBodyBytes));
  const slug = (c: Context<HubEnv>) => `${c.req.param("namespace")}/${c.req.param("slug")}`;

  app.get("/", async (c) => {
    const limit = Number(c.req.query("limit") ?? 100);
    const offset = Number(c.req.query("cursor") ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new InvalidInputError("limit is 1 to 100.");
    if (!Number.isInteger(offset) || offset < 0) throw new InvalidInputError("Invalid cursor.");
    const owners = c.req.queries("owner") ?? [];
    const page = await collections.list(actor(c), {
      owners,
      item: itemFilter(c.req.query("item")),
      offset,
      limit: limit + 1,
    });
    if (page.length > limit) {
      const next = new URL(c.req.url);
      next.searchParams.set("cursor", String(offset + limit));
      c.header("Link", `<${next.toString()}>; rel="next"`);
    }
    return c.json(page.slice(0, limit));
  });

  app.post("/", async (c) => {
    const input = await body(c, CreateBody);
    const result = await collections.create(actor(c), {
      title: input.title,
      namespace: input.namespace,
      description: input.description ?? undefined,
      private: input.private ?? undefined,
    });
    if (!result.created) {
      // huggingface_hub's create_collection(exists_ok=True) reads the slug of the existing one.
      return c.json({ error: "You already have a collection with this title.", slug: result.slug }, 409);
    }
    return c.json(result.collection);
  });

  app.get("/:namespace/:slug", async (c) => c.json(await collections.get(actor(c), slug(c))));
  app.patch("/:namespace/:slug", async (c) => {
    const fields = await body(c, UpdateBody);
    return c.json({ success: true, data: await collections.update(actor(c), slug(c), fields) });
  });
  app.delete("/:namespace/:slug", async (c) => {
    await collections.delete(actor(c), slug(c));
    return c.json({ success: true });
  });

  app.post("/:namespace/:slug/items", async (c) => {
    const input = await body(c, AddItemBody);
    return c.json(
      await collections.addItem(actor(c), slug(c), { ...input.item, note: input.note ?? undefined }),
    );
  });
  app.patch("/:namespace/:slug/items/:itemId", async (c) => {
    const fields = await body(c, UpdateItemBody);
    await collections.updateItem(actor(c), slug(c), c.req.param("itemId"), fields);
    return c.json({ success: true });
  });
  app.delete("/:namespace/:slug/items/:itemId", async (c) => {
    await collections.deleteItem(actor(c), slug(c), c.req.param("itemId"));
    return c.json({ success: true });
  });
  return app;
}
