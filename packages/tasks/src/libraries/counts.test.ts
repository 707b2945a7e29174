import { describe, expect, it } from "vitest";
import { computeLibraryCounts } from "./counts.js";
import { FILTERABLE_MODEL_LIBRARY_KEYS, MODEL_LIBRARIES } from "./model-libraries.js";

describe("catalogue counts", () => {
  const counts = computeLibraryCounts();

  it("add up", () => {
    expect(counts.libraries).toBe(Object.keys(MODEL_LIBRARIES).length);
    expect(counts.withLoadingCode + counts.downloadOnly).toBe(counts.withSnippets);
    expect(counts.filters).toBe(FILTERABLE_MODEL_LIBRARY_KEYS.length);
    expect(counts.docsAreReadme).toBeLessThanOrEqual(counts.withDocs);
  });

  it("meet the catalogue's coverage goals", () => {
    expect(counts.withDocs / counts.libraries).toBeGreaterThanOrEqual(0.9);
    expect(counts.withSnippets).toBe(counts.libraries);
  });
});
