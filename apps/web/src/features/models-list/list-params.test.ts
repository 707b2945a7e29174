import { describe, expect, it } from "vitest";
import { modelListUrl } from "../../lib/api/models.js";
import { ANY, readListParams, toApiQuery, writeListParams } from "./list-params.js";

describe("list params", () => {
  it("round-trips through the URL", () => {
    const url = new URLSearchParams(
      "search=llama&author=meta-llama&task=text-generation&library=gguf&provider=together&license=mit&language=fr&params=3b-8b&app=ollama&sort=likes&cursor=abc",
    );
    const params = readListParams(url);
    expect(writeListParams(params).toString()).toBe(url.toString());
  });
  it("uses sentinels and defaults for missing or invalid values", () => {
    const params = readListParams(new URLSearchParams("sort=bogus&task=&params=huge"));
    expect(params).toMatchObject({
      search: "",
      task: ANY,
      library: ANY,
      provider: ANY,
      params: ANY,
      sort: "trending",
    });
    expect(writeListParams(params).toString()).toBe("");
  });
  it("maps sentinels to absent API filters", () => {
    const query = toApiQuery(readListParams(new URLSearchParams("task=fill-mask&search=%20bert%20")));
    expect(query).toMatchObject({
      search: "bert",
      pipelineTag: "fill-mask",
      library: undefined,
      provider: undefined,
      license: undefined,
      numParameters: undefined,
    });
  });
  it("maps the file-derived filters to the hub's listing parameters", () => {
    const query = toApiQuery(
      readListParams(new URLSearchParams("license=apache-2.0&language=de&params=8b-15b&app=llama.cpp")),
    );
    expect(query).toMatchObject({
      license: "apache-2.0",
      language: "de",
      numParameters: "min:8B,max:15B",
      app: "llama.cpp",
    });
    expect(modelListUrl(query)).toContain(
      "license=apache-2.0&language=de&num_parameters=min%3A8B%2Cmax%3A15B&apps=llama.cpp",
    );
  });
});
