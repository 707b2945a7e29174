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

  it("keeps escapes it cannot decode as written", () => {
    expect(unescapePython("\\q\\8\\x4g\\u12\\U00110000 \\")).toBe("\\q\\8\\x4g\\u12\\U00110000 \\");
    expect(unescapePython("no escapes")).toBe("no escapes");
  });
});
