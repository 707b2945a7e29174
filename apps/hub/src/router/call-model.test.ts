import { describe, expect, it } from "vitest";
import { modelOfCall } from "./call-model.js";

const body = (text: string) => Buffer.from(text, "utf8");

describe("modelOfCall", () => {
  it("reads a leading model key without parsing the body", () => {
    expect(modelOfCall(body('{"model":"org/m-é","messages":[]}'), "/v1/chat/completions")).toBe("org/m-é");
    expect(modelOfCall(body('{ "model" : "a/b" ,"stream":true}'), "/x")).toBe("a/b");
  });

  it("finds model anywhere at the top level, escapes included", () => {
    expect(modelOfCall(body('{"messages":[{"model":"nested"}],"model":"top/m"}'), "/x")).toBe("top/m");
    expect(modelOfCall(body('{"model":"a\\/b"}'), "/x")).toBe("a/b");
  });

  it("reads the last of two model keys, as JSON.parse and the provider do", () => {
    expect(modelOfCall(body('{"model":"public/m","messages":[],"model":"private/m"}'), "/x")).toBe(
      "private/m",
    );
    expect(modelOfCall(body('{ "model": "public/m", "model": "private/m"}'), "/x")).toBe("private/m");
  });

  it("falls back to the provider path", () => {
    expect(modelOfCall(body("not json"), "/models/org/name/pipeline")).toBe("org/name");
    expect(modelOfCall(undefined, "/pipeline/text-classification/org%2Fname")).toBe("org/name");
    expect(modelOfCall(body('{"prompt":"x"}'), "/v1/images")).toBeNull();
  });
});
