import { Hono } from "hono";
import { InvalidInputError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import type { RepoAccess } from "../repos/repo-access.js";
import { CONSOLE_MAX_ROWS, MAX_PAGE_ROWS, type Page, type ViewerApi } from "./viewer-api.js";

/** The prefix of the viewer's API: a client of the public viewer works with its base URL set to it. */
export const VIEWER_PATH = "/datasets-server";

function pageOf(
  offsetText: string | undefined,
  lengthText: string | undefined,
  maxLength = MAX_PAGE_ROWS,
): Page {
  const offset = offsetText === undefined ? 0 : Number(offsetText);
  const length = lengthText === undefined ? Math.min(MAX_PAGE_ROWS, maxLength) : Number(lengthText);
  if (!Number.isInteger(offset) || offset < 0)
    throw new InvalidInputError("Parameter 'offset' must be a non-negative integer.");
  if (!Number.isInteger(length) || length < 0 || length > maxLength) {
    throw new InvalidInputError(`Parameter 'length' must be an integer between 0 and ${maxLength}.`);
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
  app.get("/filter", async (c) =>
    c.json(
      await api.filter(
        actor(c),
        c.req.query("dataset"),
        c.req.query("config"),
        c.req.query("split"),
        c.req.query("where"),
        c.req.query("orderby"),
        pageOf(c.req.query("offset"), c.req.query("length")),
      ),
    ),
  );
  app.get("/statistics", async (c) =>
    c.json(
      await api.statistics(actor(c), c.req.query("dataset"), c.req.query("config"), c.req.query("split")),
    ),
  );
  // The SQL console (this hub's own: the public one runs DuckDB in the browser over the Parquet files).
  app.post("/sql", async (c) => {
    const body = (await c.req.json().catch(() => {
      throw new InvalidInputError(
        'The body must be JSON: {"dataset": ..., "sql": ..., "offset": 0, "length": 100}.',
      );
    })) as Record<string, unknown>;
    const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : undefined);
    const number = (key: string) => (body[key] === undefined ? undefined : String(body[key]));
    const range = pageOf(number("offset"), number("length") ?? String(MAX_PAGE_ROWS), CONSOLE_MAX_ROWS);
    const timeout = body.timeout_ms === undefined ? undefined : Number(body.timeout_ms);
    // The request's signal aborts when the client closes the connection (the console's Cancel).
    return c.json(await api.sql(actor(c), text("dataset"), text("sql"), range, timeout, c.req.raw.signal));
  });
  app.get("/parquet", async (c) =>
    c.json(await api.parquet(actor(c), c.req.query("dataset"), c.req.query("config"), c.req.query("split"))),
  );
  app.get("/size", async (c) => c.json(await api.size(actor(c), c.req.query("dataset"))));
  app.get("/status", async (c) => c.json(await api.status(actor(c), c.req.query("dataset"))));
  return app;
}
