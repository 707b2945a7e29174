import { describe, expect, it } from "vitest";
import { INFERENCE_PROVIDERS, PROVIDER_DISPLAY_NAMES, PROVIDERS, providerDisplayName } from "./index.js";

describe("the provider registry", () => {
  it("is keyed by each provider's own id, and every provider has a distinct display name", () => {
    for (const id of INFERENCE_PROVIDERS) expect(PROVIDERS[id].id).toBe(id);
    const names = Object.values(PROVIDER_DISPLAY_NAMES);
    expect(new Set(names).size).toBe(INFERENCE_PROVIDERS.length);
    expect(names.every((name) => name.trim().length > 0)).toBe(true);
  });

  it("names providers for people, and leaves unknown ids as they are", () => {
    expect(providerDisplayName("together")).toBe("Together AI");
    expect(providerDisplayName("featherless-ai")).toBe("Featherless AI");
    expect(providerDisplayName("acme-ai")).toBe("acme-ai");
  });
});
