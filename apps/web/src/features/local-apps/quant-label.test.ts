import { describe, expect, it } from "vitest";
import { holdsWeights, quantOptionLabel } from "./quant-label.js";

describe("quantOptionLabel", () => {
  it("gives each file its own size and real bits per weight", () => {
    const total = 3_212_749_824;
    const medium = {
      label: "Q4_K_M",
      parsed: true,
      files: ["m.gguf"],
      size: 2_019_377_696,
      bitsPerWeight: 4.5,
    };
    const small = {
      label: "Q4_K_S",
      parsed: true,
      files: ["s.gguf"],
      size: 1_928_200_000,
      bitsPerWeight: 4.5,
    };
    expect(quantOptionLabel(medium, total)).toBe("Q4_K_M · 5.03 bpw · 2.0 GB");
    expect(quantOptionLabel(small, total)).toBe("Q4_K_S · 4.80 bpw · 1.9 GB");
  });

  it("calls the base type's figure nominal when the file's size is not known", () => {
    expect(quantOptionLabel({ label: "Q4_K_M", parsed: true, files: [], bitsPerWeight: 4.5 }, 3e9)).toBe(
      "Q4_K_M · 4.50 bpw nominal",
    );
  });

  it("does not derive bits per weight from files too small to hold the weights (a demo copy)", () => {
    const stub = { label: "Q4_K_M", parsed: true, files: ["m.gguf"], size: 2_048, bitsPerWeight: 4.5 };
    expect(quantOptionLabel(stub, 3_212_749_824)).toBe(
      "Q4_K_M · 4.50 bpw nominal · 2.0 KB here: metadata only, no weights",
    );
  });

  it("tells files that hold weights from a metadata-only copy's", () => {
    expect(holdsWeights({ size: 2_000_000_000 }, 3_212_749_824)).toBe(true);
    expect(holdsWeights({ size: 4_170 }, 3_212_749_824)).toBe(false);
    expect(holdsWeights({ size: 4_170 }, undefined)).toBe(true);
  });
});
