import { defaultWidgetOptions } from "@modelhub/widget";
import { describe, expect, it } from "vitest";
import { readBuilderOptions, writeBuilderOptions } from "./builder-state.js";

describe("widget builder state in the URL", () => {
  it("round-trips every changed option", () => {
    const options = {
      ...defaultWidgetOptions(),
      theme: "dark" as const,
      title: "Our picks & more",
      maxProducts: 4,
      maxColumns: 2,
      direction: "vertical" as const,
      permanent: ["meta-llama/Llama-3.1-8B-Instruct", "openai/whisper-large-v3"],
      owned: "google",
      noBorder: true,
      openSelf: true,
    };
    expect(readBuilderOptions(writeBuilderOptions(options))).toEqual(options);
  });
  it("writes nothing for the defaults", () => {
    expect(writeBuilderOptions(defaultWidgetOptions()).toString()).toBe("");
  });
});
