import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { describe, expect, it } from "vitest";
import mappings from "../../../hub/catalogue/mappings.json" with { type: "json" };
import { PROVIDER_IDS, providerLabel } from "./providers.js";

describe("provider labels", () => {
  it("give every provider a catalogue model uses one display name, and the filter offers each", () => {
    const used = new Set(
      Object.values(mappings as Record<string, Record<string, unknown>>).flatMap(Object.keys),
    );
    for (const provider of used) {
      expect(PROVIDER_IDS, provider).toContain(provider);
      expect(providerLabel(provider), provider).not.toBe(provider);
    }
    expect(new Set(INFERENCE_PROVIDERS.map(providerLabel)).size).toBe(INFERENCE_PROVIDERS.length);
  });
});
