import { describe, expect, it } from "vitest";
import { cursorFrom, nextLinkFrom } from "./link-header.js";

describe("nextLinkFrom", () => {
  it("finds the next link among several", () => {
    const header =
      '<https://hub/api/models?cursor=a>; rel="prev", <https://hub/api/models?cursor=b%2Cc>; rel="next"';
    expect(nextLinkFrom(header)).toBe("https://hub/api/models?cursor=b%2Cc");
    expect(cursorFrom(nextLinkFrom(header))).toBe("b,c");
  });
  it("returns undefined when there is no next page", () => {
    expect(nextLinkFrom(null)).toBeUndefined();
    expect(nextLinkFrom('</api/models?cursor=a>; rel="prev"')).toBeUndefined();
  });
  it("reads relative links", () => {
    expect(cursorFrom(nextLinkFrom("</api/models?limit=2&cursor=xyz>; rel=next"))).toBe("xyz");
  });
});
