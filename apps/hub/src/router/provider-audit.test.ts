import { describe, expect, it } from "vitest";
import { type AuditedProviderSettings, providerPutEntry } from "./provider-audit.js";

/** How a put provider's key change is told: every way a key can come and go, never its value. */
const settings = (key: Partial<AuditedProviderSettings>): AuditedProviderSettings => ({
  baseUrl: "http://gpu-1:8000/v1?token=path-secret",
  apiKeySealed: null,
  apiKeyEnv: null,
  healthPath: "/v1/models",
  headersTimeoutMs: 30_000,
  idleTimeoutMs: 60_000,
  hostedFailover: true,
  ...key,
});
const stored = settings({ apiKeySealed: "v1.sealed-one" });
const env = (name: string) => settings({ apiKeyEnv: name });
const none = settings({});

describe("providerPutEntry", () => {
  it.each([
    [none, stored, true, "set"],
    [stored, settings({ apiKeySealed: "v1.sealed-two" }), true, "replaced"],
    [stored, none, false, "removed"],
    [stored, env("OWN_PROVIDER_KEY_A"), false, "moved to the environment OWN_PROVIDER_KEY_A"],
    [env("OWN_PROVIDER_KEY_A"), stored, true, "moved from the environment to the hub"],
    [
      env("OWN_PROVIDER_KEY_A"),
      env("OWN_PROVIDER_KEY_B"),
      false,
      "now read from the environment OWN_PROVIDER_KEY_B",
    ],
    [none, env("OWN_PROVIDER_KEY_A"), false, "now read from the environment OWN_PROVIDER_KEY_A"],
  ])("tells a key change (%#)", (previous, next, keyGiven, told) => {
    const { action, details } = providerPutEntry(previous, next, keyGiven);
    expect(action).toBe("provider.update");
    expect(details).toEqual({ changed: ["apiKey"], key: told });
  });

  it("tells nothing of a kept key, nor of a URL but its origin", () => {
    const kept = providerPutEntry(stored, { ...stored, baseUrl: "http://gpu-1:8000/v2" }, false);
    expect(kept.details).toEqual({ changed: ["baseUrl"] });
    const created = providerPutEntry(undefined, stored, true);
    expect(created.action).toBe("provider.create");
    expect(JSON.stringify(created.details)).not.toMatch(/path-secret|sealed/);
    expect(created.details).toMatchObject({ baseUrlOrigin: "http://gpu-1:8000", key: "stored" });
  });
});
