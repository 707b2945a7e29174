import { describe, expect, it } from "vitest";
import { unescapePython } from "./unescape.js";

describe("unescapePython", () => {
  it("decodes what Python's unicode-escape codec decodes", () => {
    expect(unescapePython("a\\nb")).toBe("a\nb");
    expect(unescapePython("\\t\\\\x")).toBe("\t\\x");
    expect(unescapePython("\\101\\7\\1234")).toBe("A\x07S4");
    expect(unescapePython("\\x41\\u00e9\\U0001F600")).toBe("Aé😀");
    expect(unescapePython("\\'\\\"")).toBe("'\"");
    expect(unescapePython("\\a\\b\\f\\v\\r")).toBe("\x07\b\f\v\r");
    expect(unescapePython("line\\\ncontinued")).toBe("linecontinued");
  });

  it("keeps unknown escapes as written", () => {
    expect(unescapePython("\\q\\8 \\")).toBe("\\q\\8 \\");
    expect(unescapePython("no escapes")).toBe("no escapes");
  });

  it("refuses truncated \\x, \\u, \\U escapes and code points past U+10FFFF, as Python's codec does", () => {
    expect(() => unescapePython("\\x4g")).toThrow("truncated \\xXX escape");
    expect(() => unescapePython("a\\x")).toThrow("truncated \\xXX escape");
    expect(() => unescapePython("\\u12")).toThrow("truncated \\uXXXX escape");
    expect(() => unescapePython("\\U0011")).toThrow("truncated \\UXXXXXXXX escape");
    expect(() => unescapePython("\\U00110000")).toThrow("illegal Unicode character");
    expect(unescapePython("\\\\x4g")).toBe("\\x4g");
  });
});
