import { describe, expect, it } from "vitest";
import type { Route } from "./context.js";
import { RouteTable } from "./route-match.js";

const handler = () => undefined;
const routes: Route[] = [
  { method: "POST", path: "/models/*model/v1/chat/completions", handler },
  { method: "GET", path: "/*app/requests/:id/status", handler },
  { method: "POST", path: "/models/*model", handler },
];
const table = new RouteTable(routes);

describe("RouteTable", () => {
  it("takes multi-segment params and prefers earlier, more specific routes", () => {
    const chat = table.match("POST", "/models/mistralai/Mistral-7B/v1/chat/completions");
    expect(chat).toMatchObject({
      kind: "found",
      route: routes[0],
      params: { model: "mistralai/Mistral-7B" },
    });
    const model = table.match("POST", "/models/mistralai/Mistral-7B");
    expect(model).toMatchObject({
      kind: "found",
      route: routes[2],
      params: { model: "mistralai/Mistral-7B" },
    });
    const status = table.match("GET", "/fal-ai/flux/requests/abc/status");
    expect(status).toMatchObject({ kind: "found", params: { app: "fal-ai/flux", id: "abc" } });
  });

  it("tells a wrong method (405, with the allowed ones) from an unknown path (404)", () => {
    expect(table.match("GET", "/models/gpt2")).toEqual({ kind: "wrong-method", allowed: ["POST"] });
    expect(table.match("POST", "/nothing")).toEqual({ kind: "none" });
  });

  it("decodes percent-encoded segments", () => {
    expect(table.match("POST", "/models/a%2Fb")).toMatchObject({ params: { model: "a/b" } });
  });
});
