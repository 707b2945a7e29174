import { describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.js";
import { bucketOf } from "./rate-limit-middleware.js";
import { limitFor, PUBLIC_HUB_POLICY, parseRateLimitPolicy } from "./rate-limit-policy.js";

const user = (isAdmin: boolean, orgs: string[] = []): Actor =>
  ({
    kind: "user",
    user: { id: 1, kind: "user", name: "u", isAdmin },
    memberships: orgs.map((name) => ({ org: { name }, role: "read" })),
    credential: { kind: "token", token: { id: 1 } },
  }) as unknown as Actor;

describe("RATE_LIMITS", () => {
  it("is off unless set; 'default' is the public hub's numbers; JSON overrides per role and organization", () => {
    expect(parseRateLimitPolicy(undefined)).toBeUndefined();
    expect(parseRateLimitPolicy("off")).toBeUndefined();
    expect(parseRateLimitPolicy("default")).toEqual(PUBLIC_HUB_POLICY);
    const policy = parseRateLimitPolicy(
      '{"user":{"api":2000},"organizations":{"Acme":{"api":6000}},"windowSeconds":60}',
    )!;
    expect(policy.windowSeconds).toBe(60);
    expect(policy.user).toEqual({ api: 2000, resolvers: 5000, pages: 200 });
    expect(limitFor(policy, { kind: "anonymous" }, "api")).toBe(500);
    expect(limitFor(policy, user(false), "api")).toBe(2000);
    expect(limitFor(policy, user(true), "resolvers")).toBe(12000);
    expect(limitFor(policy, user(false, ["acme"]), "api")).toBe(6000);
    // An organization's number applies only where it is higher, and only to its bucket.
    expect(limitFor(policy, user(false, ["acme"]), "pages")).toBe(200);
    expect(limitFor(policy, { kind: "operator" }, "api")).toBeUndefined();
  });

  it("names what is wrong", () => {
    expect(() => parseRateLimitPolicy("{")).toThrow(/RATE_LIMITS: .*not valid JSON/);
    expect(() => parseRateLimitPolicy('{"users":{}}')).toThrow(/unknown key "users"/);
    expect(() => parseRateLimitPolicy('{"user":{"downloads":3}}')).toThrow(/user.downloads: unknown bucket/);
    expect(() => parseRateLimitPolicy('{"user":{"api":0}}')).toThrow(/user.api must be a positive integer/);
  });

  it("puts /resolve/ downloads, /api/ calls and page loads in their buckets, and nothing else", () => {
    expect(bucketOf("GET", "/acme/m/resolve/main/config.json", "*/*")).toBe("resolvers");
    expect(bucketOf("HEAD", "/datasets/acme/d/resolve/main/x.csv", undefined)).toBe("resolvers");
    expect(bucketOf("POST", "/api/repos/create", "application/json")).toBe("api");
    expect(bucketOf("GET", "/acme/m", "text/html,application/xhtml+xml")).toBe("pages");
    expect(bucketOf("GET", "/assets/index.js", "*/*")).toBeUndefined();
    expect(
      bucketOf("POST", "/acme/m.git/info/lfs/objects/batch", "application/vnd.git-lfs+json"),
    ).toBeUndefined();
  });
});
