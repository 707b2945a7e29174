import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { anyOriginCors } from "./api-cors.js";

function app() {
  const hub = new Hono();
  const made: Response[] = [];
  let final: Response | undefined;
  hub.use("*", async (c, next) => {
    await next();
    final = c.res;
  });
  hub.use(
    "*",
    anyOriginCors({
      origin: "*",
      allowMethods: ["GET", "POST"],
      exposeHeaders: ["X-Request-Id", "Link"],
      maxAge: 600,
    }),
  );
  hub.get("/json", (c) => {
    const response = c.json({ ok: true });
    made.push(response);
    return response;
  });
  hub.get("/error", () => {
    throw new Error("boom");
  });
  return { hub, made, final: () => final };
}

describe("anyOriginCors", () => {
  it("sets the CORS headers on the handler's own Response, without rebuilding it", async () => {
    const { hub, made, final } = app();
    const response = await hub.request("/json", { headers: { Origin: "https://elsewhere.example" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toBe("X-Request-Id,Link");
    expect(await response.json()).toEqual({ ok: true });
    expect(final()).toBe(made[0]);
  });

  it("answers a preflight as Hono's cors does", async () => {
    const { hub } = app();
    const response = await hub.request("/json", {
      method: "OPTIONS",
      headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "POST" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET,POST");
    expect(response.headers.get("access-control-max-age")).toBe("600");
  });

  it("sets them on errors too", async () => {
    const { hub } = app();
    const response = await hub.request("/error");
    expect(response.status).toBe(500);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});
