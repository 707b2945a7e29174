import { getProviderConfig } from "@modelhub/inference";
import { describe, expect, it } from "vitest";
import { createUpstreams, generateSimCredential } from "./upstreams.js";

describe("createUpstreams", () => {
  const sim = "http://127.0.0.1:7070";

  it("sends a keyed provider to its real base URL with its own auth header shape", () => {
    const upstreams = createUpstreams({
      providerKeys: { "fal-ai": "fal-secret" },
      simUrl: sim,
      simCredential: "hf_sim1",
    });
    expect(upstreams.get("fal-ai")).toEqual({
      provider: "fal-ai",
      baseUrl: getProviderConfig("fal-ai").baseUrl,
      authHeader: { name: "Authorization", value: "Key fal-secret" },
      target: "provider",
      secret: "fal-secret",
    });
    expect(upstreams.get("black-forest-labs")?.target).toBe("provider-sim");
  });

  it("sends keyless providers to provider-sim with the hub's own credential", () => {
    const credential = generateSimCredential();
    const upstreams = createUpstreams({ simUrl: sim, simCredential: credential });
    expect(upstreams.get("together")).toMatchObject({
      baseUrl: `${sim}/together`,
      authHeader: { name: "Authorization", value: `Bearer ${credential}` },
      target: "provider-sim",
    });
    expect(upstreams.summary().unavailable).toEqual([]);
  });

  it("prefers a configured base URL, and leaves providers with no route unavailable", () => {
    const upstreams = createUpstreams({
      providerKeys: { together: "tg" },
      providerBaseUrls: { together: "http://gateway.internal/together/" },
    });
    expect(upstreams.get("together")).toMatchObject({
      baseUrl: "http://gateway.internal/together",
      target: "override",
    });
    expect(upstreams.get("cerebras")).toBeUndefined();
    expect(upstreams.summary().unavailable).toContain("cerebras");
    expect(upstreams.keyVariable("cerebras")).toBe(getProviderConfig("cerebras").apiKeyEnv);
    expect(upstreams.isKnown("acme-ai")).toBe(false);
  });

  it("makes a fresh, unguessable simulator credential each time", () => {
    expect(generateSimCredential()).toMatch(/^hf_sim[0-9a-f]{48}$/);
    expect(generateSimCredential()).not.toBe(generateSimCredential());
  });
});
