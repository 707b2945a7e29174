import { describe, expect, it } from "vitest";
import { weightFiles } from "./weight-files.js";

describe("weightFiles", () => {
  it("finds weights in any folder and nothing in configs, tokenizers and cards", () => {
    const files = [
      { rfilename: "README.md" },
      { rfilename: "config.json" },
      { rfilename: "tokenizer.json" },
      { rfilename: "onnx/model.onnx" },
      { rfilename: "model-00001-of-00002.safetensors" },
    ];
    expect(weightFiles(files, undefined).map((file) => file.rfilename)).toEqual([
      "onnx/model.onnx",
      "model-00001-of-00002.safetensors",
    ]);
    expect(weightFiles(files.slice(0, 3), undefined)).toEqual([]);
  });

  it("does not count a GGUF file too small to hold its parameters (a demo copy's 4 KB)", () => {
    const tiny = { rfilename: "model-Q4_K_M.gguf", size: 4_170 };
    const real = { rfilename: "model-Q8_0.gguf", size: 3_400_000_000 };
    expect(weightFiles([tiny, real], 3_212_749_824)).toEqual([real]);
    // Without a parameter count nothing says the file is too small.
    expect(weightFiles([tiny], undefined)).toEqual([tiny]);
  });
});
