import { describe, expect, it } from "vitest";
import { repoListUrl } from "../../lib/api/repos.js";
import { readRepoListParams, toRepoApiQuery, writeRepoListParams } from "./list-params.js";

describe("dataset and space list params", () => {
  it("round-trips through the URL", () => {
    const url = new URLSearchParams(
      "search=wiki&author=acme&sort=name&license=mit&language=fr&sdk=gradio&cursor=abc",
    );
    expect(writeRepoListParams(readRepoListParams(url)).toString()).toBe(url.toString());
  });
  it("falls back to the newest first for a missing or unknown sort, and writes nothing for defaults", () => {
    const params = readRepoListParams(new URLSearchParams("sort=likes"));
    expect(params).toEqual({
      search: "",
      author: "",
      sort: "updated",
      license: "any",
      language: "any",
      sdk: "any",
      cursor: undefined,
    });
    expect(writeRepoListParams(params).toString()).toBe("");
  });
  it("asks the hub for the matching sort and direction", () => {
    const byName = toRepoApiQuery(
      "space",
      readRepoListParams(new URLSearchParams("sort=name&search=%20chat%20")),
    );
    expect(repoListUrl(byName)).toBe("/api/spaces?search=chat&sort=id&direction=1&limit=30");
    const newest = toRepoApiQuery("dataset", readRepoListParams(new URLSearchParams("author=ada")));
    expect(repoListUrl(newest)).toBe("/api/datasets?author=ada&sort=lastModified&direction=-1&limit=30");
  });
  it("asks for the card filters: license and language by name, a space's SDK as a tag", () => {
    const params = readRepoListParams(new URLSearchParams("license=mit&language=fr&sdk=gradio"));
    expect(repoListUrl(toRepoApiQuery("space", params))).toBe(
      "/api/spaces?filter=gradio&license=mit&language=fr&sort=lastModified&direction=-1&limit=30",
    );
    // Datasets have no SDK: a stray `sdk` in the URL filters nothing.
    expect(repoListUrl(toRepoApiQuery("dataset", params))).toBe(
      "/api/datasets?license=mit&language=fr&sort=lastModified&direction=-1&limit=30",
    );
  });
});
