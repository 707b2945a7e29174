import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminHeaders, seededApp } from "../__fixtures__/seeded-app.js";

let hub: ReturnType<typeof seededApp>;
let token: string;
beforeAll(async () => {
  // No upstreams: createApp's default, as when no key, base URL or simulator is configured.
  hub = seededApp();
  const issued = await hub.app.request("/api/admin/tokens", {
    method: "POST",
    headers: adminHeaders(),
    body: JSON.stringify({ name: "router" }),
  });
  token = ((await issued.json()) as { token: string }).token;
});
afterAll(() => hub.cleanup());

const post = (path: string, headers: Record<string, string> = {}) =>
  hub.app.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: "{}",
  });

describe("/router without a route to the provider", () => {
  it("answers 503 naming the key to configure", async () => {
    const response = await post("/router/together/v1/chat/completions", { Authorization: `Bearer ${token}` });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { code: string; error: string };
    expect(body.code).toBe("unavailable");
    expect(body.error).toContain("TOGETHER_API_KEY");
  });

  it("checks the provider and the token first", async () => {
    expect(
      (await post("/router/acme-ai/v1/chat/completions", { Authorization: `Bearer ${token}` })).status,
    ).toBe(404);
    expect((await post("/router/together/v1/chat/completions")).status).toBe(401);
    expect(
      (await post("/router/together/v1/chat/completions", { Authorization: "Bearer hf_short" })).status,
    ).toBe(401);
  });

  it("answers 404 JSON for methods and paths outside the layout", async () => {
    const response = await hub.app.request("/router/together/v1/chat/completions", { method: "DELETE" });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { code: string }).code).toBe("not_found");
  });
});
