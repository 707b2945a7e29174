import { describe, expect, it } from "vitest";
import { initialCard } from "./initial-card.js";

describe("initialCard", () => {
  it("writes the chosen fields as YAML front matter, strings quoted so YAML keeps them as text", () => {
    expect(initialCard({ title: "1.0", sdk: "gradio", pinned: false, license: "mit" })).toBe(
      '---\ntitle: "1.0"\nsdk: "gradio"\npinned: false\nlicense: "mit"\n---\n',
    );
  });
});
