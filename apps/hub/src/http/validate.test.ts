import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HubError, renderError } from "../errors.js";
import type { HubEnv } from "./hub-env.js";
import { booleanParam, numberParam, parseInput, queryParam, validate } from "./validate.js";

function app() {
  const hub = new Hono<HubEnv>();
  hub.onError((error, c) => {
    if (HubError.isInstance(error)) c.header("X-Error-Code", error.code);
    return renderError(c, error);
  });
  hub.post(
    "/things/:id",
    validate("param", z.object({ id: z.string().regex(/^\d+$/, { error: "must be a number." }) })),
    validate("query", z.object({ by: queryParam(z.enum(["user", "org"]).optional()) })),
    validate("json", z.strictObject({ name: z.string(), days: z.number().int().min(1).optional() }), {
      maxBytes: 64,
    }),
    (c) => c.json({ id: c.req.valid("param").id, by: c.req.valid("query").by, ...c.req.valid("json") }),
  );
  return hub;
}

async function post(path: string, body: string, type = "application/json") {
  const response = await app().request(path, { method: "POST", body, headers: { "Content-Type": type } });
  return { status: response.status, code: response.headers.get("X-Error-Code"), body: await response.json() };
}

describe("validate", () => {
  it("hands the handler the typed, checked input", async () => {
    const answer = await post("/things/7?by=org", JSON.stringify({ name: "a", days: 2 }));
    expect(answer).toEqual({ status: 200, code: null, body: { id: "7", by: "org", name: "a", days: 2 } });
  });

  it("names the body field and what it must be", async () => {
    const wrongType = await post("/things/7", JSON.stringify({ name: 3 }));
    expect(wrongType.status).toBe(400);
    expect(wrongType.code).toBe("invalid_input");
    expect(wrongType.body.error).toBe('"name" must be a string (got number).');
    expect((await post("/things/7", "{}")).body.error).toBe('"name" is required (a string).');
    expect((await post("/things/7", JSON.stringify({ name: "a", days: 0 }))).body.error).toBe(
      '"days" must be at least 1.',
    );
    expect((await post("/things/7", JSON.stringify({ name: "a", extra: 1 }))).body.error).toBe(
      '"extra" is not a known field.',
    );
    expect((await post("/things/7", "[1]")).body.error).toBe(
      "The request body must be a JSON object (got array).",
    );
  });

  it("names query and path parameters, with a schema's own message first", async () => {
    const body = JSON.stringify({ name: "a" });
    expect((await post("/things/7?by=team", body)).body.error).toBe(
      'Query parameter "by" must be one of: user, org.',
    );
    expect((await post("/things/x", body)).body.error).toBe('Path parameter "id" must be a number.');
    // Repeated: the last value counts; empty: absent.
    expect((await post("/things/7?by=team&by=user", body)).body.by).toBe("user");
    expect((await post("/things/7?by=", body)).status).toBe(200);
  });

  it("keeps the hub's body limits: JSON type, size, syntax", async () => {
    expect((await post("/things/7", "name=a", "text/plain")).status).toBe(415);
    expect((await post("/things/7", JSON.stringify({ name: "a".repeat(100) }))).status).toBe(413);
    const malformed = await post("/things/7", "{");
    expect([malformed.status, malformed.code]).toEqual([400, "invalid_json"]);
  });

  it("checks values a service receives the same way", () => {
    expect(() => parseInput(z.object({ n: z.number() }), { n: "1" })).toThrow(
      '"n" must be a number (got string).',
    );
    const point = z.object({ x: z.number() }, { error: "must be an object {x}." });
    expect(() => parseInput(point, { x: null }, { what: "point" })).toThrow(
      'Invalid point: "x" must be a number (got null).',
    );
    expect(() => parseInput(point, 3, { what: "point" })).toThrow("The point must be an object {x}.");
  });
});

describe("query value schemas", () => {
  const query = z.object({
    on: queryParam(booleanParam.optional()),
    n: queryParam(numberParam({ min: 1, max: 10, integer: true }).optional()),
  });
  const read = (value: Record<string, string>) => parseInput(query, value, "query");

  it("reads booleans and numbers as clients write them", () => {
    expect(read({ on: "True", n: "7" })).toEqual({ on: true, n: 7 });
    expect(read({ on: "0" })).toEqual({ on: false });
    expect(read({})).toEqual({});
  });

  it("names the parameter and what it must be", () => {
    expect(() => read({ on: "maybe" })).toThrow('Query parameter "on" must be true or false.');
    expect(() => read({ n: "1e3" })).toThrow('Query parameter "n" must be an integer.');
    expect(() => read({ n: "11" })).toThrow('Query parameter "n" must be an integer from 1 to 10.');
  });
});
