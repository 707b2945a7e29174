import { describe, expect, it } from "vitest";
import { ALL_PROTOCOLS } from "../protocols/index.js";
import {
  INFERENCE_PROVIDERS,
  PROVIDER_DISPLAY_NAMES,
  PROVIDERS,
  providerDisplayName,
  providerTaskPairs,
  taskSpec,
} from "./index.js";

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

  it("gives every route that takes files the encoder of its encoding (prepare runs it)", async () => {
    let encoded = 0;
    for (const { provider, task } of providerTaskPairs()) {
      const spec = taskSpec(provider, task, ALL_PROTOCOLS);
      expect(spec.encodeInputs === undefined, `${provider} ${task}`).toBe(spec.inputEncoding === undefined);
      if (!spec.encodeInputs) continue;
      const args = { inputs: new Blob([new Uint8Array([104, 105])], { type: "image/png" }) };
      const out = await spec.encodeInputs(args);
      const how = spec.inputEncoding!(args);
      if (how === "raw") expect(out).toBe(args);
      else expect(out.inputs).toBe(how === "base64" ? "aGk=" : "data:image/png;base64,aGk=");
      encoded++;
    }
    expect(encoded).toBeGreaterThan(10);
  });
});
