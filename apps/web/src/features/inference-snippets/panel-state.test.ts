import { describe, expect, it } from "vitest";
import { pickAvailable, readPanelState, writePanelState } from "./panel-state.js";

describe("snippet panel state in the URL", () => {
  it("round-trips every field", () => {
    const url =
      "provider=together&language=js&client=openai&streaming=true&temperature=0.5&max_tokens=256&top_p=0";
    const state = readPanelState(new URLSearchParams(url));
    expect(state).toEqual({
      provider: "together",
      language: "js",
      client: "openai",
      streaming: true,
      parameters: { temperature: 0.5, max_tokens: 256, top_p: 0 },
    });
    expect(writePanelState(state).toString()).toBe(url);
  });
  it("keeps 0 as a set value and drops out-of-range or malformed ones", () => {
    const state = readPanelState(new URLSearchParams("temperature=0&top_p=7&max_tokens=abc&language=cobol"));
    expect(state.parameters).toEqual({ temperature: 0 });
    expect(state.language).toBe("python");
  });
  it("falls back to the first available choice", () => {
    expect(pickAvailable("openai", ["huggingface_hub", "openai"])).toBe("openai");
    expect(pickAvailable("curl", ["huggingface_hub", "openai"])).toBe("huggingface_hub");
    expect(pickAvailable(undefined, [])).toBeUndefined();
  });
});
