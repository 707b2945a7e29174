import { describe, expect, it } from "vitest";
import { countsAsDownload, parseDownloadRule } from "./download-rule.js";

describe("countsAsDownload: the public hub's countDownloads rules", () => {
  it("counts a library's own files, and the default config files for a library without a rule", () => {
    // transformers has no rule: config.json is the one file that counts (one per snapshot_download).
    expect(countsAsDownload("transformers", "config.json")).toBe(true);
    expect(countsAsDownload("transformers", "model.safetensors")).toBe(false);
    expect(countsAsDownload(undefined, "params.json")).toBe(true);
    expect(countsAsDownload(undefined, "sub/config.json")).toBe(false);
    // gguf: every .gguf file.
    expect(countsAsDownload("gguf", "model-Q4_K_M.gguf")).toBe(true);
    expect(countsAsDownload("gguf", "config.json")).toBe(false);
  });

  it("reads AND, OR and the path fields of the query language", () => {
    const rule = parseDownloadRule('path_filename:"config" AND path_extension:"json" OR path_prefix:"runs/"');
    expect(rule("config.json")).toBe(true);
    expect(rule("nested/config.json")).toBe(true);
    expect(rule("config.yaml")).toBe(false);
    expect(rule("runs/1/events")).toBe(true);
    const inFolder = parseDownloadRule(
      'path_filename:"model" AND path_extension:"mil" AND _exists_:"path_prefix"',
    );
    expect(inFolder("a/model.mil")).toBe(true);
    expect(inFolder("model.mil")).toBe(false);
    expect(parseDownloadRule('unknown_field:"x"')("x")).toBe(false);
  });
});
