import { describe, expect, it } from "vitest";
import { safeNext } from "./account-api.js";

describe("safeNext", () => {
  it.each(["/models", "/settings/tokens?tab=new#create", "/alice/demo/blob/main/a%20b.txt", "/"])(
    "keeps %j",
    (next) => {
      expect(safeNext(next)).toBe(next);
    },
  );

  it.each([
    null,
    "",
    "//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\\evil.example",
    "/a\\b",
    "https://evil.example",
    "javascript:alert(1)",
    " /x",
    "/x y",
    "/caf\u00e9",
  ])("refuses %j", (next) => {
    expect(safeNext(next)).toBe("/models");
  });
});
