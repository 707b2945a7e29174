import { describe, expect, it } from "vitest";
import { modelsOfCall } from "./call-model.js";
import type { AllowedCall } from "./inference-routes.js";

const body = (text: string) => Buffer.from(text, "utf8");
const json: AllowedCall = { pathModel: null, rawBody: false, versionInBody: false };
const named = (text: string, call = json) => modelsOfCall(body(text), call).named;

describe("modelsOfCall", () => {
  it("reads the body as JSON whatever comes before its first key", () => {
    expect(named('{"model":"org/m-é","messages":[]}')).toEqual(["org/m-é"]);
    expect(named(' \n\t{ "model" : "a/b" ,"stream":true}')).toEqual(["a/b"]);
    expect(named('\ufeff{"model":"a/b"}')).toEqual(["a/b"]);
    expect(named('{"messages":[{"model":"nested"}],"model":"top/m"}')).toEqual(["top/m"]);
    expect(named('{"model":"a\\/b"}')).toEqual(["a/b"]);
    expect(named('{"mod\\u0065l":"a/b"}')).toEqual(["a/b"]);
  });

  it("refuses a body naming the model twice under one key (servers differ on which one they read)", () => {
    expect(() => named('{"model":"public/m","messages":[],"model":"private/m"}')).toThrow(/twice/);
    expect(() => named('{ "model" : "a", "x": {"model": 1}, "model"\n:"b"}')).toThrow(/twice/);
    expect(() => named('{"mod\\u0065l":"private/m","model":"public/m"}')).toThrow(/twice/);
    const predictions = { ...json, versionInBody: true };
    expect(() => modelsOfCall(body('{"version":"abc","version":"def"}'), predictions)).toThrow(/twice/);
    // Nested, in strings, or once per key: named as read.
    expect(named('{"model":"a/b","messages":[{"content":"model \\"model\\": x","model":"n"}]}')).toEqual([
      "a/b",
    ]);
  });

  it("names every key a provider may read a model from: any letter case, and model_name", () => {
    expect(named('{"model":"a/b","Model":"c/d","MODEL_NAME":"e/f"}')).toEqual(["a/b", "c/d", "e/f"]);
  });

  it("names the path's model with the body's, and records the body's first", () => {
    const call = { ...json, pathModel: "org/name" };
    expect(modelsOfCall(body('{"model":"x/y"}'), call)).toEqual({
      named: ["org/name", "x/y"],
      recorded: "x/y",
      versions: [],
    });
    expect(modelsOfCall(undefined, call)).toEqual({
      named: ["org/name"],
      recorded: "org/name",
      versions: [],
    });
    expect(modelsOfCall(body('{"prompt":"x"}'), json)).toEqual({ named: [], recorded: null, versions: [] });
  });

  it("names Replicate's model version, alone or with its model id, where the call takes one", () => {
    const predictions = { ...json, versionInBody: true };
    const of = (text: string) => modelsOfCall(body(text), predictions);
    expect(of('{"version":"5599ed","input":{}}')).toMatchObject({ named: [], versions: ["5599ed"] });
    expect(of('{"version":"owner/name:5599ed"}')).toMatchObject({
      named: ["owner/name:5599ed"],
      versions: [],
    });
    expect(modelsOfCall(body('{"version":"5599ed"}'), json).versions).toEqual([]);
  });

  it("refuses a body that is not a JSON object, unless the call may carry raw bytes", () => {
    expect(() => named("not json")).toThrow(/not valid JSON/);
    expect(() => named('["model","a/b"]')).toThrow(/must be a JSON object/);
    expect(() => named("")).toThrow(/not valid JSON/);
    const raw = { ...json, pathModel: "org/name", rawBody: true };
    expect(modelsOfCall(body("RIFF....WAVE"), raw)).toEqual({
      named: ["org/name"],
      recorded: "org/name",
      versions: [],
    });
    expect(named('{"inputs":"x","model":"a/b"}', raw)).toEqual(["org/name", "a/b"]);
  });
});
