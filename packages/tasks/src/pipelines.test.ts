import { describe, expect, it } from "vitest";
import { isPipelineType, MODALITIES, MODALITY_LABELS, PIPELINE_DATA, PIPELINE_TYPES } from "./pipelines.js";

describe("PIPELINE_DATA", () => {
  it("covers the pipeline types a model hub knows today", () => {
    expect(PIPELINE_TYPES.length).toBeGreaterThanOrEqual(55);
    for (const task of [
      "text-classification",
      "text-generation",
      "image-text-to-text",
      "any-to-any",
      "video-to-video",
    ]) {
      expect(isPipelineType(task), task).toBe(true);
    }
  });

  it("gives each type a unique label and a labelled modality", () => {
    const labels = PIPELINE_TYPES.map((task) => PIPELINE_DATA[task].name);
    expect(new Set(labels).size).toBe(labels.length);
    for (const task of PIPELINE_TYPES) {
      expect(MODALITIES).toContain(PIPELINE_DATA[task].modality);
      expect(MODALITY_LABELS[PIPELINE_DATA[task].modality].length).toBeGreaterThan(0);
    }
  });

  it("rejects what is not a pipeline type", () => {
    for (const value of ["", "Text-Classification", "toString", "__proto__", 42, null, undefined]) {
      expect(isPipelineType(value), String(value)).toBe(false);
    }
  });
});
