import { describe, expect, it } from "vitest";
import { ANY, readListParams, toApiQuery, writeListParams } from "./list-params.js";

describe("list params", () => {
  it("round-trips through the URL", () => {
    const url = new URLSearchParams(
      "search=llama&task=text-generation&library=gguf&provider=together&sort=likes&cursor=abc",
    );
    const params = readListParams(url);
    expect(writeListParams(params).toString()).toBe(url.toString());
  });
  it("uses sentinels and defaults for missing or invalid values", () => {
    const params = readListParams(new URLSearchParams("sort=bogus&task="));
    expect(params).toMatchObject({ search: "", task: ANY, library: ANY, provider: ANY, sort: "trending" });
    expect(writeListParams(params).toString()).toBe("");
  });
  it("maps sentinels to absent API filters", () => {
    const query = toApiQuery(readListParams(new URLSearchParams("task=fill-mask&search=%20bert%20")));
    expect(query).toMatchObject({
      search: "bert",
      pipelineTag: "fill-mask",
      library: undefined,
      provider: undefined,
    });
  });
});
