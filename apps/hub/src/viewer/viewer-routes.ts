import { Hono } from "hono";
import { InvalidInputError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import type { RepoAccess } from "../repos/repo-access.js";
import { MAX_PAGE_ROWS, type Page, type ViewerApi } from "./viewer-api.js";

/** The prefix of the viewer's API: a client of the public viewer works with its base URL set to it. */
export const VIEWER_PATH = "/datasets-server";

function pageOf(offsetText: string | undefined, lengthText: string | undefined): Page {
  const offset = offsetText === undefined ? 0 : Number(offsetText);
  const length = lengthText === undefined ? MAX_PAGE_ROWS : Number(lengthText);
  if (!Number.isInteger(offset) || offset < 0)
    throw new InvalidInputError("Parameter 'offset' must be a non-negative integer.");
  if (!Number.isInteger(length) || length < 0 || length > MAX_PAGE_ROWS) {
    throw new InvalidInputError(`Parameter 'length' must be an integer between 0 and ${MAX_PAGE_ROWS}.`);
  }
  return { offset, length };
}

/**
 * The dataset viewer's API, as the public one (https://huggingface.co/docs/dataset-viewer): `/is-valid`,
 * `/splits`, `/first-rows`, `/rows`, `/search`, `/parquet`, `/size`, and `/status` (this hub's: the
 * conversion's state and error). Query parameters and answers as there; access as a download's.
 */
export function viewerRoutes(deps: { api: ViewerApi; access: RepoAccess }) {
  const { api } = deps;
  const app = new Hono<HubEnv>();
  const actor = (c: Parameters<RepoAccess["actor"]>[0]) => deps.access.actor(c);
  app.get("/is-valid", async (c) => c.json(await api.isValid(actor(c), c.req.query("dataset"))));
  app.get("/splits", async (c) => c.json(await api.splits(actor(c), c.req.query("dataset"))));
  app.get("/first-rows", async (c) =>
    c.json(
      await api.firstRows(actor(c), c.req.query("dataset"), c.req.query("config"), c.req.query("split")),
    ),
  );
  app.get("/rows", async (c) =>
    c.json(
      await api.rows(
        actor(c),
        c.req.query("dataset"),
        c.req.query("config"),
        c.req.query("split"),
        pageOf(c.req.query("offset"), c.req.query("length")),
      ),
    ),
  );
  app.get("/search", async (c) =>
    c.json(
      await api.search(
        actor(c),
        c.req.query("dataset"),
        c.req.query("config"),
        c.req.query("split"),
        c.req.query("query"),
        pageOf(c.req.query("offset"), c.req.query("length")),
      ),
    ),
  );
  app.get("/parquet", async (c) =>
    c.json(await api.parquet(actor(c), c.req.query("dataset"), c.req.query("config"), c.req.query("split"))),
  );
  app.get("/size", async (c) => c.json(await api.size(actor(c), c.req.query("dataset"))));
  app.get("/status", async (c) => c.json(await api.status(actor(c), c.req.query("dataset"))));
  return app;
}
