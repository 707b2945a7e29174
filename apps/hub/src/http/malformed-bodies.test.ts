import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoApp } from "../__fixtures__/repo-app.js";
import { MAX_JSON_DEPTH } from "./body.js";

/**
 * The repository routes that take a JSON or form body parse it as every other route does: a broken or
 * too-deep body is a 400 in the hub's error shape (never a 500), and the caller's state is unchanged.
 */

let hub: Awaited<ReturnType<typeof repoApp>>;
const ID = "alice/bodies";

beforeAll(async () => {
  hub = await repoApp();
  await hub.createRepo(ID);
  const gated = await hub.app.request(`/api/models/${ID}/settings`, {
    method: "PUT",
    headers: { ...hub.auth, "Content-Type": "application/json" },
    body: JSON.stringify({ gated: "manual" }),
  });
  expect(gated.status).toBe(200);
});
afterAll(() => hub.cleanup());

const ROUTES = [
  { name: "paths-info", path: `/api/models/${ID}/paths-info/main` },
  { name: "create a branch", path: `/api/models/${ID}/branch/feature` },
  { name: "ask for access", path: `/api/models/${ID}/ask-access` },
];

const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
const BODIES = [
  { body: "{not json", says: "not valid JSON" },
  { body: `{"paths": ${deep}}`, says: `deeper than ${MAX_JSON_DEPTH} levels` },
  { body: "[1, 2]", says: "Expected a JSON object" },
];

describe("malformed JSON bodies on repository routes", () => {
  for (const route of ROUTES) {
    it(`${route.name}: 400 with the reason`, async () => {
      for (const { body, says } of BODIES) {
        const response = await hub.app.request(route.path, {
          method: "POST",
          headers: { ...hub.auth, "Content-Type": "application/json" },
          body,
        });
        expect(response.status, `${route.name} ${body.slice(0, 20)}`).toBe(400);
        const answer = (await response.json()) as { error: string };
        expect(answer.error).toContain(says);
      }
    });
  }

  it("nothing was written: no branch, no access request", async () => {
    const refs = (await (await hub.app.request(`/api/models/${ID}/refs`, { headers: hub.auth })).json()) as {
      branches: { name: string }[];
    };
    expect(refs.branches.map((b) => b.name)).toEqual(["main"]);
    const pending = await hub.app.request(`/api/models/${ID}/user-access-request/pending`, {
      headers: hub.auth,
    });
    expect(pending.status).toBe(200);
    expect(await pending.json()).toEqual([]);
  });

  it("well-formed bodies still work on the same routes", async () => {
    const branch = await hub.app.request(`/api/models/${ID}/branch/feature`, {
      method: "POST",
      headers: { ...hub.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ startingPoint: "main" }),
    });
    expect(branch.status).toBe(200);
    const info = await hub.app.request(`/api/models/${ID}/paths-info/main`, {
      method: "POST",
      headers: { ...hub.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ paths: [".gitattributes"] }),
    });
    expect(info.status).toBe(200);
  });
});
