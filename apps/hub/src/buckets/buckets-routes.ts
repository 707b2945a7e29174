import { Readable } from "node:stream";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { InvalidInputError } from "../errors.js";
import { jsonObject, readJsonBody } from "../http/body.js";
import { parseRange } from "../http/byte-range.js";
import type { HubEnv } from "../http/hub-env.js";
import { queryBoolean, queryInteger, queryOne } from "../http/query.js";
import { ndjsonValues, requestStream } from "../http/request-stream.js";
import { parseInput } from "../http/validate.js";
import { isObject } from "../is-object.js";
import type { CasService } from "../lfs-xet/cas-service.js";
import { type BucketOperation, type BucketsService, parseBucketId } from "./buckets-service.js";

export interface BucketsRoutesDeps {
  buckets: BucketsService;
  /** Reads a Xet file's bytes (downloads of a bucket's files by plain HTTP clients). */
  cas: Pick<CasService, "read">;
  publicUrl: string;
  maxBodyBytes: number;
}

const XET_FILE_INFO = "application/vnd.xet-fileinfo+json";
/** Operations per batch (@huggingface/hub sends at most 100 per request). */
const MAX_OPERATIONS = 10_000;
const MAX_LINE_BYTES = 64 * 1024;

const CreateBody = z.object({
  visibility: z
    .enum(["public", "private", "protected"], { error: 'must be "public" or "private".' })
    .nullish(),
  private: z.boolean({ error: "must be a boolean." }).nullish(),
  resourceGroupId: z.string().nullish(),
});

const PathsBody = z.object({
  paths: z.union([z.string(), z.array(z.string())], { error: "must be a list of paths." }),
  expand: z.boolean().nullish(),
});

/** One NDJSON line of a batch, or an `invalid` operation saying why it is not one. */
function operationOf(value: unknown): BucketOperation {
  if (!isObject(value)) return { type: "invalid", path: "", error: "Each line must be a JSON object." };
  const path = typeof value.path === "string" ? value.path : "";
  const text = (key: string) => (typeof value[key] === "string" ? (value[key] as string) : "");
  switch (value.type) {
    case "addFile":
      return { type: "addFile", path, xetHash: text("xetHash") };
    case "copyFile":
      return {
        type: "copyFile",
        path,
        xetHash: text("xetHash"),
        sourceRepoType: text("sourceRepoType"),
        sourceRepoId: text("sourceRepoId"),
      };
    case "deleteFile":
      return { type: "deleteFile", path };
    default:
      return {
        type: "invalid",
        path,
        error: `Unknown operation type ${JSON.stringify(String(value.type).slice(0, 40))}: addFile, copyFile or deleteFile.`,
      };
  }
}

/**
 * Storage buckets at the public hub's paths, as @huggingface/hub calls them: `POST|DELETE|GET
 * /api/buckets/{namespace}/{name}` (create `{visibility}`, delete, info), `GET .../xet-write-token` and
 * `.../xet-read-token` (CAS tokens for the bucket), `POST .../batch` (NDJSON `addFile`, `copyFile`,
 * `deleteFile`: 200 when all succeed, 422 with `failed` otherwise), `GET .../tree[/{path}]` (`recursive`,
 * `limit`, `cursor` through `Link`), `POST .../paths-info`, and `GET|HEAD /buckets/{namespace}/{name}/resolve/{path}`
 * (the bytes with ranges, or the Xet file info when asked for it).
 */
export function bucketsRoutes(deps: BucketsRoutesDeps): Hono<HubEnv> {
  const { buckets } = deps;
  const app = new Hono<HubEnv>();
  const idOf = (c: Context<HubEnv>) =>
    parseBucketId(c.req.param("namespace") ?? "", c.req.param("name") ?? "").id;
  const base = "/api/buckets/:namespace/:name";

  app.post(base, async (c) => {
    const body = parseInput(CreateBody, jsonObject(await readJsonBody(c, deps.maxBodyBytes)));
    const id = parseBucketId(c.req.param("namespace"), c.req.param("name"));
    const isPrivate = body.private ?? (body.visibility ? body.visibility !== "public" : false);
    const bucket = await buckets.create(c.get("actor"), id, { private: isPrivate });
    return c.json({ id: bucket.id, name: bucket.id, url: `${deps.publicUrl}/buckets/${bucket.id}` });
  });

  app.delete(base, async (c) => {
    await buckets.delete(c.get("actor"), idOf(c));
    return c.json({ success: true });
  });

  app.get(base, async (c) => {
    const bucket = await buckets.info(c.get("actor"), idOf(c));
    return c.json({
      id: bucket.id,
      name: bucket.id,
      author: bucket.owner,
      private: bucket.private,
      createdAt: bucket.createdAt,
      lastModified: bucket.updatedAt,
    });
  });

  for (const scope of ["read", "write"] as const) {
    app.get(`${base}/xet-${scope}-token`, async (c) => {
      const connection = await buckets.xetToken(c.get("actor"), idOf(c), scope);
      c.header("X-Xet-Cas-Url", connection.casUrl);
      c.header("X-Xet-Access-Token", connection.accessToken);
      c.header("X-Xet-Token-Expiration", String(connection.exp));
      c.header("Cache-Control", "no-store");
      return c.json(connection);
    });
  }

  app.post(`${base}/batch`, async (c) => {
    const actor = c.get("actor");
    const id = idOf(c);
    await buckets.assertWritable(actor, id);
    const operations: BucketOperation[] = [];
    for await (const value of ndjsonValues(requestStream(c), MAX_LINE_BYTES)) {
      if (operations.length >= MAX_OPERATIONS) {
        throw new InvalidInputError(`A batch holds at most ${MAX_OPERATIONS} operations: send several.`);
      }
      operations.push(operationOf(value));
    }
    const result = await buckets.batch(actor, id, operations);
    return c.json(result, result.success ? 200 : 422);
  });

  const tree = async (c: Context<HubEnv>) => {
    const entries = await buckets.tree(
      c.get("actor"),
      idOf(c),
      c.req.param("path") ?? "",
      queryBoolean(c, "recursive") ?? false,
    );
    const limit = queryInteger(c, "limit", { min: 1, max: 10_000 }) ?? 1000;
    const cursor = queryOne(c, "cursor");
    const start = cursor ? Number(Buffer.from(cursor, "base64url").toString()) : 0;
    if (!Number.isInteger(start) || start < 0) throw new InvalidInputError("Invalid cursor.");
    if (start + limit < entries.length) {
      const url = new URL(c.req.url);
      const next = new URL(url.pathname + url.search, deps.publicUrl);
      next.searchParams.set("cursor", Buffer.from(String(start + limit)).toString("base64url"));
      c.header("Link", `<${next.toString()}>; rel="next"`);
    }
    return c.json(entries.slice(start, start + limit));
  };
  app.get(`${base}/tree`, tree);
  app.get(`${base}/tree/:path{.+}`, tree);

  app.post(`${base}/paths-info`, async (c) => {
    const body = parseInput(PathsBody, await readJsonBody(c, deps.maxBodyBytes));
    const paths = typeof body.paths === "string" ? [body.paths] : body.paths;
    return c.json(await buckets.pathsInfo(c.get("actor"), idOf(c), paths));
  });

  app.get("/buckets/:namespace/:name/resolve/:path{.+}", async (c) => {
    const id = idOf(c);
    const { file, xet } = await buckets.file(c.get("actor"), id, c.req.param("path"));
    const refreshUrl = `${deps.publicUrl}/api/buckets/${id}/xet-read-token`;
    const reconstructionUrl = `${deps.publicUrl}/xet-cas/v1/reconstructions/${xet.hash}`;
    const headers: Record<string, string> = {
      ETag: `"${xet.hash}"`,
      "X-Xet-Hash": xet.hash,
      "X-Linked-Etag": `"${xet.hash}"`,
      "X-Linked-Size": String(file.size),
      Link: `<${refreshUrl}>; rel="xet-auth", <${reconstructionUrl}>; rel="xet-reconstruction-info"`,
      "Accept-Ranges": "bytes",
      "Cache-Control": "private, max-age=0, must-revalidate",
      Vary: "Accept",
      "Access-Control-Expose-Headers":
        "ETag, X-Linked-Etag, X-Linked-Size, X-Xet-Hash, Link, Content-Range, Content-Length, X-Request-Id",
    };
    if ((c.req.header("Accept") ?? "").includes(XET_FILE_INFO)) {
      return c.json(
        {
          casUrl: `${deps.publicUrl}/xet-cas`,
          hash: xet.hash,
          refreshUrl,
          reconstructionUrl,
          size: file.size,
        },
        200,
        { ...headers, "Content-Type": XET_FILE_INFO },
      );
    }
    const range = parseRange(c.req.header("Range"), file.size);
    if (range.kind === "unsatisfiable") {
      return new Response(null, {
        status: 416,
        headers: { ...headers, "Content-Range": `bytes */${file.size}` },
      });
    }
    const start = range.kind === "range" ? range.start : 0;
    const end = range.kind === "range" ? range.end : file.size - 1;
    const status = range.kind === "range" ? 206 : 200;
    headers["Content-Type"] = "application/octet-stream";
    headers["Content-Length"] = String(Math.max(0, end - start + 1));
    if (range.kind === "range") headers["Content-Range"] = `bytes ${start}-${end}/${file.size}`;
    if (c.req.method === "HEAD" || file.size === 0) return new Response(null, { status, headers });
    const bytes = Readable.from(deps.cas.read(xet, start, end));
    return new Response(Readable.toWeb(bytes) as ReadableStream, { status, headers });
  });

  return app;
}
